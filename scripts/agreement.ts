/**
 * Real-page agreement between URL mode and paste mode (scripts/lib/agreement.ts), in process:
 *   node --import tsx scripts/agreement.ts [sample|shared] [out.json]     (npm run bench:agreement: shared)
 * Renders every page of the corpus from 127.0.0.1 and prints each page's links in paste mode, in URL
 * mode and in both, the mean ratio, and the render times; exit 1 when a page falls below its level in
 * tests/fixtures/agreement-baseline.json (recorded before issue 28's settle rules; the agreement test
 * holds the same floor).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRenderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { meanRatio, pageAgreement, type PageAgreement } from "./lib/agreement";
import { CORPUS_DIR, SAMPLE_CORPUS_DIR } from "./lib/corpus";
import { startCorpusSite } from "./lib/corpus-site";
import { loadAverage } from "./lib/machine";
import { median, percentile } from "./lib/stats";
import { TEST_CHROMIUM } from "./lib/chromium";

async function main(): Promise<void> {
  const [which = "sample", out] = process.argv.slice(2);
  const dir = which === "shared" ? CORPUS_DIR : SAMPLE_CORPUS_DIR;
  const site = await startCorpusSite(dir);
  const renderer = createRenderer({
    config: parseConfig({
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    }),
  });
  const results: Array<PageAgreement & { ms: number }> = [];
  console.log(`agreement on ${which} (${site.files.length} pages), load average ${loadAverage()}`);
  try {
    for (const file of site.files) {
      const started = performance.now();
      try {
        const page = await pageAgreement(renderer, site, dir, file);
        results.push({ ...page, ms: performance.now() - started });
        console.log(
          `${file}: paste ${page.paste}, url ${page.url}, common ${page.common}, ratio ${page.ratio.toFixed(3)}, ${(performance.now() - started).toFixed(0)} ms`,
        );
      } catch (error) {
        console.log(`${file}: failed ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await renderer.close();
    await site.close();
  }
  const baseline = JSON.parse(
    readFileSync(path.join(__dirname, "..", "tests", "fixtures", "agreement-baseline.json"), "utf8"),
  ) as { below_one: Record<string, number> };
  const below = results.filter((page) => page.ratio < (baseline.below_one[page.file] ?? 1) - 1e-9);
  for (const page of below)
    console.log(`BELOW BASELINE ${page.file}: ${page.ratio.toFixed(4)} < ${baseline.below_one[page.file] ?? 1}`);
  if (below.length > 0) process.exitCode = 1;
  const times = results.map((page) => page.ms);
  console.log(
    `mean ratio ${meanRatio(results).toFixed(4)} over ${results.length} pages; exact ${results.filter((page) => page.ratio === 1).length}; ${below.length} below the recorded level; render+analysis median ${median(times).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms; load average ${loadAverage()}`,
  );
  if (out) writeFileSync(out, JSON.stringify(results, null, 1));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
