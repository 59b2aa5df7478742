import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, sharedCorpusDir } from "@/scripts/lib/corpus";

/**
 * Every test passes on a bare clone. The 170-page corpus sits beside the repository (../shared) only on
 * machines that have it, so a test that reads it directly fails on a fresh clone (scandir ENOENT). The one
 * way to it is sharedCorpusDir() in scripts/lib/corpus.ts, which answers null when it is absent, so the
 * corpus can only add cases. This test finds any other file of tests/ or scripts/lib that names the
 * directory in a string (`"shared"` as a path segment, "../shared", "shared/corpus").
 */
const ROOT = path.resolve(__dirname, "..", "..");
const HELPER = "scripts/lib/corpus.ts";
// This file names the pattern in its own examples.
const SELF = path.relative(ROOT, __filename);
const SCANNED = ["tests", "scripts/lib", "vitest.config.mts", "playwright.config.ts"];
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;

const STRING_LITERAL = /(["'`])((?:(?!\1)[^\n\\]|\\.)*)\1/g;
/** `shared` as a directory in a path: "shared", "../shared", "shared/corpus", `${root}/shared`. */
const SHARED_SEGMENT = /^shared$|[/\\]shared\b|\bshared[/\\]/;

function sourceFiles(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  if (SOURCE.test(relative)) return [relative];
  let entries;
  try {
    entries = readdirSync(absolute, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(child);
    return SOURCE.test(entry.name) ? [child] : [];
  });
}

/** The lines with a string literal that names a directory called shared. */
function offendingLines(source: string): string[] {
  return source
    .split("\n")
    .filter((line) => [...line.matchAll(STRING_LITERAL)].some((literal) => SHARED_SEGMENT.test(literal[2] ?? "")));
}

describe("tests read nothing outside the repository except through sharedCorpusDir()", () => {
  it("the pattern catches the ways a path to ../shared is written, and not look-alikes", () => {
    const caught = [
      'const FULL = path.resolve(__dirname, "..", "..", "..", "..", "shared", "corpus", "pages");',
      'readdirSync("../shared/corpus/pages")',
      "path.join(root, '../shared')",
      "const dir = `${root}/../shared/corpus`;",
      'describe("corpus (shared/corpus)", () => {});',
    ];
    const passed = [
      'const SECRET = "shared-secret-shared-secret";',
      "// the full corpus in ../shared/corpus runs too",
      'it("answers from the shared store", () => {});',
    ];
    expect(caught.filter((line) => offendingLines(line).length === 0)).toEqual([]);
    expect(passed.flatMap(offendingLines)).toEqual([]);
  });

  it(`no file of ${SCANNED.join(", ")} names ../shared but ${HELPER}`, () => {
    const files = SCANNED.flatMap(sourceFiles).filter((file) => file !== HELPER && file !== SELF);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      offendingLines(readFileSync(path.join(ROOT, file), "utf8")).map((line) => `${file}: ${line.trim()}`),
    );
    expect(offenders, "use sharedCorpusDir() from scripts/lib/corpus.ts (null on a bare clone)").toEqual([]);
    expect(offendingLines(readFileSync(path.join(ROOT, HELPER), "utf8")).length).toBeGreaterThan(0);
  });

  it("sharedCorpusDir() is null when the corpus is absent, and the directory when it is there", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "linklens-corpus-"));
    try {
      expect(sharedCorpusDir(path.join(dir, "missing"))).toBeNull();
      expect(sharedCorpusDir(dir)).toBe(dir);
      expect(CORPUS_DIR).toBe(path.resolve(ROOT, "..", "shared", "corpus", "pages"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
