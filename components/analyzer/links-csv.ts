import type { Link } from "@/lib/api/schemas";

/**
 * RFC 4180 CSV of the links, one header row. Text cells that a spreadsheet would read as a formula
 * (leading = + - @, tab or CR) get a leading apostrophe: anchor text comes from arbitrary pages and
 * SEO people open these files in Excel (OWASP "CSV injection").
 */
export const CSV_COLUMNS = [
  "position",
  "href",
  "linkType",
  "anchorText",
  "isNofollow",
  "isSponsored",
  "isUgc",
  "isImage",
  "httpStatus",
  "matchedGroupName",
] as const satisfies readonly (keyof Link)[];

/** Columns whose text comes from the page (the formula guard applies to them). */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["href", "anchorText", "matchedGroupName"]);

export function csvCell(value: string | number | boolean | null | undefined, { text = false } = {}): string {
  if (value === null || value === undefined) return "";
  let cell = String(value);
  if (text && /^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * The columns and their order are those of the signed-in product's audit export (docs/spec/account-api.md),
 * so one file format serves both.
 */
export function linksToCsv(links: readonly Link[]): string {
  const rows = [CSV_COLUMNS.join(",")];
  for (const link of links)
    rows.push(CSV_COLUMNS.map((column) => csvCell(link[column], { text: TEXT_COLUMNS.has(column) })).join(","));
  return `${rows.join("\r\n")}\r\n`;
}
