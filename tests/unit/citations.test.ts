import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every file a comment or a document cites is in the repository, so whoever clones it can follow every
 * reference: the specification (docs/spec/), the documents of docs/, the code.
 *
 * Scanned: the comments of lib/, app/, components/, server/, scripts/, tests/ (not tests/fixtures/: data)
 * and of the configuration files at the root; README.md and every Markdown file under docs/.
 *
 * A citation is
 * - a Markdown file name, bare or with a path: `decisions.md`, `docs/spec/webhooks.md`;
 * - a path into a folder of the repository ending in a file name: `lib/monitor/run-check.ts`,
 *   `app/r/[token]/page.tsx` (a placeholder — `<case>`, `*`, `…` — makes it a pattern, not a citation);
 * - in a document, a Markdown link's target: `[the plan](scaling.md#the-load)`.
 * The corpus beside the repository (reached through sharedCorpusDir()) is data, not a citation; web URLs
 * are not citations.
 *
 * It resolves when it names an existing file or folder
 * 1. relative to the folder of the file that cites it (how a Markdown link resolves: for a link's target
 *    the only rule), else
 * 2. relative to the repository root, else
 * 3. for a bare file name: as the one file of that name in docs/ or docs/spec/ (the specification is cited
 *    by bare name: `placement-verdict.md`). A name two files share is no citation by itself: the account
 *    API's specification and its document are docs/spec/account-api.md and docs/account-api.md, so code
 *    names the path; inside docs/ and docs/spec/, rule 1 finds the neighbour.
 * A link's `#anchor` must be a heading of its target (GitHub's slugs). A citation followed by a quoted
 * section — `placement-verdict.md "Page signals"`, `docs/account-api.md, "Scheduling"`, `README.md's
 * "Quick start"` — must name the start of a heading, or of a bold lead-in (`**Bot policy.**`), of that
 * file.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const CODE_FOLDERS = ["lib", "app", "components", "server", "scripts", "tests"];
const SKIPPED = new Set(["node_modules", ".next", "dist", "tests/fixtures"]);
const CODE = /\.(?:[cm]?[jt]s|tsx|css|sql)$/;
const SPEC_FOLDERS = ["docs", "docs/spec"];

/** Relative path of every file under a folder of the repository whose name matches. */
function filesUnder(folder: string, name: RegExp): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (SKIPPED.has(entry.name) || SKIPPED.has(relative)) return [];
    if (entry.isDirectory()) return filesUnder(relative, name);
    return name.test(entry.name) ? [relative] : [];
  });
}

function scannedCode(): string[] {
  const rootConfigs = readdirSync(ROOT).filter((name) => CODE.test(name) && statSync(path.join(ROOT, name)).isFile());
  return [...rootConfigs, ...CODE_FOLDERS.flatMap((folder) => filesUnder(folder, CODE))];
}

function scannedDocuments(): string[] {
  return ["README.md", ...filesUnder("docs", /\.md$/)];
}

/* ---- Comments ---- */

/** The comments of a source file: TypeScript's own scanner for script (strings, templates and regular
 *  expressions are not comments), `--` lines for SQL, block comments for CSS. */
function commentsOf(file: string, text: string): string[] {
  if (file.endsWith(".sql")) return text.split("\n").flatMap((line) => /--(.*)$/.exec(line)?.[1] ?? []);
  if (file.endsWith(".css")) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => match[0]);
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const starts = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) starts.set(range.pos, text.slice(range.pos, range.end));
  };
  // Each comment is trivia before some token: the end of the line after one token (trailing) or the lines
  // before the next (leading). Walking every token's full start finds them all.
  const visit = (node: ts.Node) => {
    collect(ts.getTrailingCommentRanges(text, node.getFullStart()));
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  collect(ts.getTrailingCommentRanges(text, source.getEnd()));
  return [...starts.values()];
}

/* ---- Citations ---- */

interface Citation {
  /** As written. */
  target: string;
  /** A link's `#anchor` or a quoted section after the citation. */
  section: string | null;
  /** A Markdown link's target: resolved from the citing file's folder only. */
  link: boolean;
}

const TOP_FOLDERS = "(?:lib|app|components|server|scripts|tests|docs|reports)";
const EXTENSIONS = "(?:[cm]?[jt]s|tsx|json|md|sql|css|html|sh)";
/** A folder or file name; Next's route folders too: `[token]`, `[[...path]]`, `(app)`. */
const SEGMENT = String.raw`(?:[\w.@\-]+|\[\[?(?:\.\.\.)?[\w\-]+\]\]?|\([\w\-]+\))`;
/** Not inside a longer path or a URL: nothing path-like or `:` right before. */
const START = String.raw`(?<![\w./:@\-])`;
const MARKDOWN_FILE = new RegExp(String.raw`${START}(?:\.\.?/)*(?:[\w.\-]+/)*[\w.\-]*[\w\-]\.md\b`, "g");
const REPO_PATH = new RegExp(String.raw`${START}${TOP_FOLDERS}/(?:${SEGMENT}/)*[\w.@\-]*\.${EXTENSIONS}\b`, "g");
const README_SECTION = /\bREADME(?:\.md)?(?='s|,? ")/g;
/** A quoted section right after a citation: `.md "A"`, `.md's "A"`, `.md, "A"`, `.md §2.6 "A"`. */
const SECTION_AFTER = /^(?:'s)?(?:,|:)?\s*(?:§[\d.]+\s*)?"([^"\n]+)"/;
const MARKDOWN_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;

/** The citations in a piece of text (a comment, or a whole document when `links` is set). */
function citationsIn(text: string, links: boolean): Citation[] {
  const found: Citation[] = [];
  const taken = new Set<number>();
  if (links) {
    // Link syntax shown as code (`[label](url)` in an inline code span or a fenced block) is not a link.
    const code = [...text.matchAll(/^```[^\n]*\n[\s\S]*?^```|(`+)[^`\n][\s\S]*?\1/gm)].map((span) => ({
      start: span.index ?? 0,
      end: (span.index ?? 0) + span[0].length,
    }));
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const at = match.index ?? 0;
      if (code.some((span) => at >= span.start && at < span.end)) continue;
      const raw = match[1] ?? "";
      if (/^[a-z][a-z+.-]*:/i.test(raw)) continue;
      const [target = "", anchor = null] = raw.split("#");
      found.push({ target, section: anchor, link: true });
      taken.add((match.index ?? 0) + match[0].indexOf("](") + 2);
    }
  }
  const spans: { start: number; end: number }[] = [];
  for (const pattern of [REPO_PATH, MARKDOWN_FILE, README_SECTION]) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (taken.has(start) || spans.some((span) => start < span.end && end > span.start)) continue;
      spans.push({ start, end });
      const section = SECTION_AFTER.exec(text.slice(end))?.[1] ?? null;
      const target = match[0] === "README" ? "README.md" : match[0];
      if (pattern === README_SECTION && section === null) continue;
      found.push({ target, section, link: false });
    }
  }
  return found;
}

/* ---- Resolution ---- */

const bareNames = new Map<string, string[]>();
for (const folder of SPEC_FOLDERS) {
  for (const name of readdirSync(path.join(ROOT, folder))) {
    if (statSync(path.join(ROOT, folder, name)).isFile())
      bareNames.set(name, [...(bareNames.get(name) ?? []), `${folder}/${name}`]);
  }
}

/** The repository path a citation names, or null. */
function resolve(citation: Citation, citingFile: string): string | null {
  const { target } = citation;
  if (target === "") return citingFile;
  const fromCiting = path.posix.normalize(path.posix.join(path.posix.dirname(citingFile), target));
  const candidates = citation.link ? [fromCiting] : [fromCiting, path.posix.normalize(target)];
  for (const candidate of candidates) {
    if (!candidate.startsWith("..") && existsSync(path.join(ROOT, candidate))) return candidate.replace(/\/$/, "");
  }
  if (citation.link || target.includes("/")) return null;
  const matches = bareNames.get(target) ?? [];
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

/* ---- Sections ---- */

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const plain = (words: string) => words.replaceAll("`", "").trim().toLowerCase();

function sectionsOf(markdown: string): { anchors: Set<string>; titles: string[] } {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((match) => match[1] ?? "");
  const anchors = new Set<string>();
  for (const heading of headings) {
    let anchor = slug(heading);
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${slug(heading)}-${n}`;
    anchors.add(anchor);
  }
  const leadIns = [...markdown.matchAll(/^\s*(?:[-*]\s+)?\*\*([^*\n]+)\*\*/gm)].map((match) => match[1] ?? "");
  return { anchors, titles: [...headings, ...leadIns].map(plain) };
}

/** Why a section of a resolved Markdown file is not there, or null when it is. */
function missingSection(citation: Citation, resolved: string): string | null {
  if (citation.section === null || !resolved.endsWith(".md")) return null;
  const { anchors, titles } = sectionsOf(readFileSync(path.join(ROOT, resolved), "utf8"));
  if (citation.link) return anchors.has(citation.section) ? null : `no heading #${citation.section} in ${resolved}`;
  const wanted = plain(citation.section);
  return titles.some((title) => title.startsWith(wanted)) ? null : `no section "${citation.section}" in ${resolved}`;
}

/** Every citation of the repository that does not resolve, as `file: citation (why)`. */
function brokenCitations(): string[] {
  const inCode = scannedCode().flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    // Parsing is the slow part: a file with no citation anywhere in it has none in its comments.
    if (![REPO_PATH, MARKDOWN_FILE, README_SECTION].some((pattern) => text.search(pattern) >= 0)) return [];
    return commentsOf(file, text).flatMap((comment) =>
      citationsIn(comment, false).map((citation) => ({ file, citation })),
    );
  });
  const inDocuments = scannedDocuments().flatMap((file) =>
    citationsIn(readFileSync(path.join(ROOT, file), "utf8"), true).map((citation) => ({ file, citation })),
  );
  return [...inCode, ...inDocuments].flatMap(({ file, citation }) => {
    const written = citation.target + (citation.section === null ? "" : ` "${citation.section}"`);
    const resolved = resolve(citation, file);
    if (resolved === null) return [`${file}: ${written} (no such file)`];
    const missing = missingSection(citation, resolved);
    return missing === null ? [] : [`${file}: ${written} (${missing})`];
  });
}

describe("every file a comment or document cites is in the repository", () => {
  it("finds the comments of script and SQL, not strings, templates or regular expressions", () => {
    const source = [
      "// one",
      'const a = "// not a comment"; /* two */',
      "const b = `${a} /* not a comment */`;",
      "const c = /\\/\\/ not a comment/;",
      "const d = <p>{/* three */}</p>; // four",
    ].join("\n");
    expect(commentsOf("x.tsx", source)).toEqual(["// one", "/* two */", "/* three */", "// four"]);
    expect(commentsOf("x.sql", "SELECT 1; -- five\n-- six")).toEqual([" five", " six"]);
  });

  it("reads citations, their sections and link targets, and leaves patterns, URLs and data alone", () => {
    const cited = (text: string, links = false) =>
      citationsIn(text, links).map(({ target, section }) => (section === null ? target : `${target} "${section}"`));
    expect(cited('see placement-verdict.md "Page signals" and lib/monitor/run-check.ts')).toEqual([
      "lib/monitor/run-check.ts",
      'placement-verdict.md "Page signals"',
    ]);
    expect(cited('docs/account-api.md, "Scheduling"; account-api.md\'s "Domain groups"; README "MCP"')).toEqual([
      'docs/account-api.md "Scheduling"',
      'account-api.md "Domain groups"',
      'README.md "MCP"',
    ]);
    expect(cited("[x](scaling.md#design) and [y](https://example.org/a.md) in ../reports/benchmarks.md", true)).toEqual(
      ['scaling.md "design"', "../reports/benchmarks.md"],
    );
    expect(cited("shown as code: `[label](url)`, and\n```\n[a](b)\n```\n[real](scaling.md)", true)).toEqual([
      "scaling.md",
    ]);
    const ignored = "tests/fixtures/<case>/input.html, lib/analyzer/render-*.ts, dist/server.cjs, the README";
    expect(cited(`${ignored}, https://github.com/x/y/blob/main/README.md, @/lib/x.ts`)).toEqual([]);
  });

  it("resolves from the citing file, from the root, or by a bare name one file of docs/ has", () => {
    const bare = (target: string, from = "lib/x.ts") => resolve({ target, section: null, link: false }, from);
    expect(bare("placement-verdict.md")).toBe("docs/spec/placement-verdict.md");
    expect(bare("lib/config.ts")).toBe("lib/config.ts");
    expect(bare("account-api.md")).toBeNull();
    expect(bare("account-api.md", "docs/product.md")).toBe("docs/account-api.md");
    expect(bare("account-api.md", "docs/spec/webhooks.md")).toBe("docs/spec/account-api.md");
    expect(bare("lib/no-such-file.ts")).toBeNull();
    expect(bare("spec/decisions.md")).toBeNull();
    const link = (target: string, from: string) => resolve({ target, section: null, link: true }, from);
    expect(link("scaling.md", "docs/product.md")).toBe("docs/scaling.md");
    expect(link("docs/scaling.md", "docs/product.md")).toBeNull();
  });

  it("no comment or document cites a file, heading or section the repository does not have", () => {
    expect(scannedCode().length).toBeGreaterThan(500);
    expect(brokenCitations()).toEqual([]);
  });
});
