import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Real pages saved from the web, one file per page: `<host>[--<variant>].html`. The full 170-page corpus
 * lives outside the repository (../shared/corpus/pages, beside the checkout) and a fresh clone does not
 * have it; the repository vendors an 11-page sample. This file is the only place that names the outside
 * directory (tests/unit/hermetic.test.ts enforces it): tests take it from sharedCorpusDir(), which is null
 * on a bare clone, so the full corpus can only add cases.
 */
const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The full corpus beside the repository: benchmarks need it; tests go through sharedCorpusDir(). */
export const CORPUS_DIR = path.resolve(REPO_ROOT, "..", "shared", "corpus", "pages");

/** The vendored sample (tests/fixtures/corpus), present on every clone. */
export const SAMPLE_CORPUS_DIR = path.join(REPO_ROOT, "tests", "fixtures", "corpus", "pages");

/** The full corpus's directory, or null when it is not beside the repository (a bare clone). */
export function sharedCorpusDir(dir = CORPUS_DIR): string | null {
  return existsSync(dir) ? dir : null;
}

export interface CorpusPage {
  file: string;
  /** The page's host, from the file name: it becomes the paste-mode `domain`. */
  domain: string;
  /** UTF-8 bytes of the `html` field, the figure MAX_HTML_BYTES is compared with. */
  htmlBytes: number;
  /** The ready-to-send JSON request body `{"html": …, "domain": …}`. */
  body: Buffer;
}

export function domainOf(file: string): string {
  return path.basename(file, ".html").split("--")[0] ?? file;
}

/** Every corpus page as a paste-mode request body, smallest first. */
export function loadCorpus(dir = CORPUS_DIR): CorpusPage[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".html"))
    .map((file) => {
      const html = readFileSync(path.join(dir, file), "utf8");
      const domain = domainOf(file);
      return { file, domain, htmlBytes: Buffer.byteLength(html), body: Buffer.from(JSON.stringify({ html, domain })) };
    })
    .sort((a, b) => a.htmlBytes - b.htmlBytes);
}
