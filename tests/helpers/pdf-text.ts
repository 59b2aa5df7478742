import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A report PDF's text through poppler's pdftotext, in the order the page drew it (-raw): a table cell's
 * wrapped lines stay together, whereas the default reading order interleaves them with the next cell's,
 * whose length changes with the day's name (a report from "Saturday …" failed that way).
 */
export function reportPdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "linklens-report-"));
  try {
    writeFileSync(join(dir, "report.pdf"), pdf);
    return execFileSync("pdftotext", ["-raw", join(dir, "report.pdf"), "-"], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
