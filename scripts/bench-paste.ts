/**
 * Paste-mode throughput on the real-page corpus: for every page, the bare jsdom DOMParser parse and
 * the whole analyzeDocument pipeline (nesting guard, parse, extraction, classification, pruning,
 * DOMPurify, serialization), measured in the same run so machine load affects both alike.
 *
 *   node --import tsx scripts/bench-paste.ts [--rounds N] [corpus-dir]
 *
 * Prints median and max per page, MB/s, and the pipeline/parse ratio (target: within 2x; median page
 * under 200 ms). The two pages over MAX_HTML_BYTES are included: the size cap is the HTTP layer's.
 */
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseHtml } from "../lib/analyzer/document/parse";
import { analyzeDocument } from "../lib/analyzer/pipeline";
import { CORPUS_DIR } from "./lib/corpus";

const args = process.argv.slice(2);
const roundsIndex = args.indexOf("--rounds");
const rounds = roundsIndex === -1 ? 1 : Math.max(1, Number(args[roundsIndex + 1] ?? 1));
const dir = args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--rounds") ?? CORPUS_DIR;

const pages = readdirSync(dir)
  .filter((name) => name.endsWith(".html"))
  .sort()
  .map((name) => ({
    name,
    html: readFileSync(path.join(dir, name), "utf8"),
    host: name.replace(/\.html$/, "").split("--")[0] ?? name,
  }));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

// Warm up: jsdom loads element classes lazily and V8 needs a few runs to optimize.
for (const page of pages.slice(0, 10))
  analyzeDocument({ html: page.html, pageUrl: `https://${page.host}/`, scripting: false });

const parseTimes = new Map<string, number>();
const pipelineTimes = new Map<string, number>();
for (let round = 0; round < rounds; round++) {
  for (const page of pages) {
    // Alternate the order so neither side always runs on a freshly collected heap.
    const measureParse = () => {
      const start = performance.now();
      parseHtml(page.html);
      const ms = performance.now() - start;
      parseTimes.set(page.name, Math.min(parseTimes.get(page.name) ?? Infinity, ms));
    };
    const measurePipeline = () => {
      const start = performance.now();
      analyzeDocument({ html: page.html, pageUrl: `https://${page.host}/`, scripting: false });
      const ms = performance.now() - start;
      pipelineTimes.set(page.name, Math.min(pipelineTimes.get(page.name) ?? Infinity, ms));
    };
    if ((round + pages.indexOf(page)) % 2 === 0) {
      measureParse();
      measurePipeline();
    } else {
      measurePipeline();
      measureParse();
    }
  }
}

const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.html), 0);
const parse = pages.map((page) => parseTimes.get(page.name) ?? 0);
const pipeline = pages.map((page) => pipelineTimes.get(page.name) ?? 0);
const ratios = pages.map((page) => (pipelineTimes.get(page.name) ?? 0) / (parseTimes.get(page.name) ?? 1));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const worst = pages
  .map((page, index) => ({ name: page.name, ratio: ratios[index] ?? 0, ms: pipeline[index] ?? 0 }))
  .sort((a, b) => b.ms - a.ms)[0];

const row = (label: string, values: number[]) =>
  `${label.padEnd(22)} median ${median(values).toFixed(1).padStart(7)} ms   max ${Math.max(...values)
    .toFixed(1)
    .padStart(
      8,
    )} ms   total ${(sum(values) / 1000).toFixed(2).padStart(6)} s   ${(bytes / 1e6 / (sum(values) / 1000)).toFixed(2).padStart(6)} MB/s`;

console.log(
  `LinkLens paste-mode benchmark: ${pages.length} pages, ${(bytes / 1e6).toFixed(1)} MB, ${rounds} round(s) (best of), node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}`,
);
console.log(row("bare DOMParser parse", parse));
console.log(row("analyzeDocument", pipeline));
console.log(
  `ratio pipeline/parse   median ${median(ratios).toFixed(2)}x   overall ${(sum(pipeline) / sum(parse)).toFixed(2)}x   max ${Math.max(...ratios).toFixed(2)}x`,
);
if (worst !== undefined)
  console.log(`slowest page           ${worst.name} ${worst.ms.toFixed(0)} ms (${worst.ratio.toFixed(2)}x its parse)`);
