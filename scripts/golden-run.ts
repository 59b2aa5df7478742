/**
 * Accuracy guard for performance work: records what LinkLens answers for every real page, so a change
 * can be diffed against a run taken before it.
 *
 *   node --import tsx scripts/golden-run.ts record <dir> [pipeline] [paste] [url]
 *   node --import tsx scripts/golden-run.ts diff <before-dir> <after-dir>
 *
 * Kinds (all three by default):
 *  - pipeline: analyzeDocument in this process on the shared corpus (170 pages) and the vendored sample
 *    (tests/fixtures/corpus), every page including the two over 2 MiB;
 *  - paste: the production server (`npm run build` first), paste mode over HTTP, the raw answer bodies
 *    of every page ≤ MAX_HTML_BYTES;
 *  - url: the production server, URL mode on the shared corpus served from 127.0.0.1 (no internet: every
 *    outside request fails), the answer bodies with the local origin replaced by `ORIGIN`.
 * Each page's answer is one file, `<dir>/<kind>/<corpus>/<page>.json`. `diff` compares two runs page by
 * page and says, per page, whether links, stats, sanitizedHtml or anything else changed; exit 1 on any
 * difference.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { CORPUS_DIR, domainOf } from "./lib/corpus";
import { startCorpusSite } from "./lib/corpus-site";
import { loadAverage } from "./lib/machine";
import { BROWSER_UA, startServer } from "./lib/server-process";
import { median, percentile } from "./lib/stats";

const SAMPLE_DIR = path.resolve(__dirname, "..", "tests", "fixtures", "corpus", "pages");
const CORPORA: Record<string, string> = { shared: CORPUS_DIR, sample: SAMPLE_DIR };
const MAX_HTML_BYTES = 2_097_152;
const ANALYZE = "/api/demo/analyze";

function pagesOf(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort();
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function recordPipeline(out: string): void {
  for (const [corpus, dir] of Object.entries(CORPORA)) {
    for (const file of pagesOf(dir)) {
      const html = readFileSync(path.join(dir, file), "utf8");
      let text: string;
      try {
        text = JSON.stringify(analyzeDocument({ html, pageUrl: `https://${domainOf(file)}/`, scripting: false }));
      } catch (error) {
        text = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
      }
      write(path.join(out, "pipeline", corpus, `${file}.json`), text);
    }
    console.log(`pipeline ${corpus}: ${pagesOf(dir).length} pages`);
  }
}

async function recordPaste(out: string): Promise<void> {
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
  try {
    for (const [corpus, dir] of Object.entries(CORPORA)) {
      let count = 0;
      for (const file of pagesOf(dir)) {
        const html = readFileSync(path.join(dir, file), "utf8");
        if (Buffer.byteLength(html) > MAX_HTML_BYTES) continue;
        const response = await fetch(`${server.baseUrl}${ANALYZE}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ html, domain: domainOf(file) }),
        });
        write(path.join(out, "paste", corpus, `${file}.json`), `${response.status}\n${await response.text()}`);
        count += 1;
      }
      console.log(`paste ${corpus}: ${count} pages`);
    }
  } finally {
    await server.stop();
  }
}

async function recordUrl(out: string): Promise<void> {
  const site = await startCorpusSite(CORPUS_DIR);
  const server = await startServer({
    RATE_LIMIT_PER_MINUTE: "100000000",
    DEMO_URL_MONTHLY_BUDGET: "100000000",
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
  });
  const times: number[] = [];
  try {
    for (const file of site.files) {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}${ANALYZE}`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": BROWSER_UA },
        body: JSON.stringify({ url: site.url(file) }),
      });
      const body = await response.text();
      times.push(performance.now() - started);
      write(
        path.join(out, "url", "shared", `${file}.json`),
        `${response.status}\n${body.replaceAll(site.origin, "ORIGIN")}`,
      );
    }
    console.log(
      `url shared: ${site.files.length} pages, median ${median(times).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
    await site.close();
  }
}

/** The parts of an answer file: HTTP status (when recorded) and the parsed body. */
function readAnswer(file: string): { status: string; body: Record<string, unknown> | null; raw: string } {
  const text = readFileSync(file, "utf8");
  const newline = text.indexOf("\n");
  const hasStatus = /^\d{3}$/.test(text.slice(0, newline));
  const raw = hasStatus ? text.slice(newline + 1) : text;
  try {
    return { status: hasStatus ? text.slice(0, newline) : "", body: JSON.parse(raw) as Record<string, unknown>, raw };
  } catch {
    return { status: hasStatus ? text.slice(0, newline) : "", body: null, raw };
  }
}

function listFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(root, full));
    }
  };
  walk(root);
  return found.sort();
}

function diff(before: string, after: string): number {
  const a = listFiles(before);
  const b = new Set(listFiles(after));
  let differing = 0;
  let compared = 0;
  for (const name of a) {
    if (!b.has(name)) continue;
    compared += 1;
    const left = readAnswer(path.join(before, name));
    const right = readAnswer(path.join(after, name));
    if (left.raw === right.raw && left.status === right.status) continue;
    differing += 1;
    const parts: string[] = [];
    if (left.status !== right.status) parts.push(`status ${left.status} → ${right.status}`);
    if (left.body && right.body) {
      const keys = new Set([...Object.keys(left.body), ...Object.keys(right.body)]);
      for (const key of keys) {
        if (JSON.stringify(left.body[key]) === JSON.stringify(right.body[key])) continue;
        if (key === "links" && Array.isArray(left.body.links) && Array.isArray(right.body.links)) {
          const l = left.body.links as unknown[];
          const r = right.body.links as unknown[];
          const first = l.findIndex((link, index) => JSON.stringify(link) !== JSON.stringify(r[index]));
          parts.push(
            `links (${l.length} → ${r.length}; first difference at ${first}: ${JSON.stringify(l[first])} → ${JSON.stringify(r[first])})`,
          );
        } else if (key === "stats") {
          parts.push(`stats ${JSON.stringify(left.body.stats)} → ${JSON.stringify(right.body.stats)}`);
        } else {
          parts.push(key);
        }
      }
      if (parts.length === 0) parts.push("same values, different bytes (key order or formatting)");
    } else {
      parts.push("body");
    }
    console.log(`DIFF ${name}: ${parts.join("; ")}`);
  }
  const onlyOne = a.filter((name) => !b.has(name)).length + [...b].filter((name) => !a.includes(name)).length;
  console.log(`${compared} answers compared, ${differing} differ; ${onlyOne} present in one run only`);
  return differing;
}

async function main(): Promise<void> {
  const [command, first, ...rest] = process.argv.slice(2);
  if (command === "diff" && first && rest[0]) {
    process.exitCode = diff(first, rest[0]) === 0 ? 0 : 1;
    return;
  }
  if (command !== "record" || !first) {
    console.error("usage: golden-run.ts record <dir> [pipeline] [paste] [url] | diff <before> <after>");
    process.exitCode = 2;
    return;
  }
  const kinds = rest.length > 0 ? rest : ["pipeline", "paste", "url"];
  console.log(`golden run into ${first}: ${kinds.join(", ")}; load average ${loadAverage()}`);
  if (kinds.includes("pipeline")) recordPipeline(first);
  if (kinds.includes("paste")) await recordPaste(first);
  if (kinds.includes("url")) await recordUrl(first);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
