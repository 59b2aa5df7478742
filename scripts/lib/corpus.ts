import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** Real pages saved from the web, one file per page: `<host>[--<variant>].html`. */
export const CORPUS_DIR = path.resolve(__dirname, "..", "..", "..", "shared", "corpus", "pages");

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
