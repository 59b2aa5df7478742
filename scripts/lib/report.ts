/**
 * Turns a benchmark's console output into Markdown: `console.table` boxes become Markdown tables, the
 * other lines stay as text. The benchmarks are separate scripts with their own output; reading
 * their printout (rather than importing them) keeps each one runnable on its own and unchanged.
 */

export type OutputBlock = { kind: "text"; lines: string[] } | { kind: "table"; rows: string[][] };

const TABLE_TOP = "┌";
const TABLE_BOTTOM = "└";
const CELL = "│";

/** Splits console output into tables (rows of cells, header first) and runs of text lines. */
export function splitOutput(output: string): OutputBlock[] {
  const blocks: OutputBlock[] = [];
  let table: string[][] | null = null;
  for (const raw of output.split("\n")) {
    const line = raw.trimEnd();
    if (line.startsWith(TABLE_TOP)) {
      table = [];
    } else if (table && line.startsWith(TABLE_BOTTOM)) {
      blocks.push({ kind: "table", rows: table });
      table = null;
    } else if (table) {
      if (line.startsWith(CELL)) table.push(cells(line));
    } else if (line.trim() !== "") {
      const last = blocks.at(-1);
      if (last?.kind === "text") last.lines.push(line);
      else blocks.push({ kind: "text", lines: [line] });
    }
  }
  return blocks;
}

/** The cells of one `│ a │ 'b' │` row, quotes that console.table puts around strings removed. */
function cells(line: string): string[] {
  return line
    .split(CELL)
    .slice(1, -1)
    .map((cell) => cell.trim().replace(/^'(.*)'$/, "$1"));
}

/** A Markdown table; the "(index)" column console.table adds is left out. */
export function markdownTable(rows: string[][]): string {
  const header = rows[0] ?? [];
  const keep = header.map((name, index) => (name === "(index)" ? -1 : index)).filter((index) => index >= 0);
  const pick = (row: string[]): string[] => keep.map((index) => (row[index] ?? "").replaceAll("|", "\\|"));
  const lines = [`| ${pick(header).join(" | ")} |`, `|${keep.map(() => "---").join("|")}|`];
  for (const row of rows.slice(1)) lines.push(`| ${pick(row).join(" | ")} |`);
  return lines.join("\n");
}

/** Text lines as a list, or verbatim when they are aligned in columns (a list would collapse the spacing). */
function textToMarkdown(lines: string[]): string {
  if (lines.some((line) => /\S {3,}\S/.test(line))) return ["```", ...lines, "```"].join("\n");
  return lines.map((line) => `- ${line.trim()}`).join("\n");
}

/** Console output as Markdown: tables as tables, text as a list or verbatim. */
export function outputToMarkdown(output: string): string {
  return splitOutput(output)
    .map((block) => (block.kind === "table" ? markdownTable(block.rows) : textToMarkdown(block.lines)))
    .join("\n\n");
}
