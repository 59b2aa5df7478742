import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { pageAgreement } from "@/scripts/lib/agreement";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "@/scripts/lib/corpus";
import { startCorpusSite, type CorpusSite } from "@/scripts/lib/corpus-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Real-page agreement between URL mode and paste mode (scripts/lib/agreement.ts) stays at its level from
 * before the idle-based settle rules (lib/analyzer/render/settle.ts), page by page: a render that stopped before
 * a page's inline scripts were done would lose links and drop below it. The vendored sample always; the
 * shared corpus (beside the checkout, when present) every STRIDE-th page, all 170 with FULL_CORPUS=1
 * (`node --import tsx scripts/agreement.ts shared` prints them all).
 */

const STRIDE = 10;
const BASELINE = JSON.parse(
  readFileSync(path.join(__dirname, "..", "..", "fixtures", "agreement-baseline.json"), "utf8"),
) as { below_one: Record<string, number> };
const FULL = sharedCorpusDir();

function htmlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort();
}

const CORPORA: Array<{ name: string; dir: string; files: string[] }> = [
  { name: "the vendored sample", dir: SAMPLE_CORPUS_DIR, files: htmlFiles(SAMPLE_CORPUS_DIR) },
  ...(FULL
    ? [
        {
          name: "the shared corpus",
          dir: FULL,
          files: htmlFiles(FULL).filter((_, index) => process.env.FULL_CORPUS === "1" || index % STRIDE === 0),
        },
      ]
    : []),
];

describe.each(CORPORA)("URL mode agrees with paste mode on $name", ({ dir, files }) => {
  let site: CorpusSite;
  let renderer: Renderer;
  beforeAll(async () => {
    site = await startCorpusSite(dir);
    renderer = createRenderer({
      config: parseConfig({
        ALLOW_PRIVATE_HOSTS: site.allowEntry,
        PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
        RENDER_TIMEOUT_MS: "20000",
      }),
    });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it.each(files)("%s", async (file) => {
    const agreement = await pageAgreement(renderer, site, dir, file);
    const floor = BASELINE.below_one[file] ?? 1;
    expect(agreement.ratio, JSON.stringify(agreement)).toBeGreaterThanOrEqual(floor);
  });
});
