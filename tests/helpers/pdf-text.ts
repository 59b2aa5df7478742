import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs `read` on the PDF written to a file in a temp directory of its own (poppler's tools read files), then removes it. */
export function withPdfFile<T>(pdf: Buffer, read: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "linklens-pdf-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, pdf);
    return read(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A PDF's text through poppler's pdftotext. "layout" keeps the page's columns side by side; "raw" is the order
 * the page drew it, where a table cell's wrapped lines stay together: in reading order they interleave with the
 * next cell's, whose length can change with the day's name (a scheduled report from "Saturday …" failed that way).
 */
export function pdfText(pdf: Buffer, order: "layout" | "raw" = "layout"): string {
  return withPdfFile(pdf, (file) => execFileSync("pdftotext", [`-${order}`, file, "-"], { encoding: "utf8" }));
}

/** What poppler's pdfinfo says of a PDF (its "Pages:" line among others). */
export function pdfInfo(pdf: Buffer): string {
  return withPdfFile(pdf, (file) => execFileSync("pdfinfo", [file], { encoding: "utf8" }));
}
