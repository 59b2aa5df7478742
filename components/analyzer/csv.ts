import type { Link } from "@/lib/api/schemas";

/**
 * RFC 4180 CSV of the links, one header row. Text cells that a spreadsheet would read as a formula
 * (leading = + - @, tab or CR) get a leading apostrophe: anchor text comes from arbitrary pages and
 * SEO people open these files in Excel (OWASP "CSV injection").
 */
export const CSV_COLUMNS = ["position", "anchorText", "href", "linkType", "isNofollow", "isSponsored", "isUgc", "isImage", "httpStatus", "matchedGroupName"] as const;

export function csvCell(value: string | number | boolean | null | undefined, { text = false } = {}): string {
  if (value === null || value === undefined) return "";
  let cell = String(value);
  if (text && /^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

export function linksToCsv(links: readonly Link[]): string {
  const rows = [CSV_COLUMNS.join(",")];
  for (const link of links) {
    rows.push(
      [
        csvCell(link.position),
        csvCell(link.anchorText, { text: true }),
        csvCell(link.href, { text: true }),
        csvCell(link.linkType),
        csvCell(link.isNofollow),
        csvCell(link.isSponsored),
        csvCell(link.isUgc),
        csvCell(link.isImage),
        csvCell(link.httpStatus),
        csvCell(link.matchedGroupName, { text: true }),
      ].join(","),
    );
  }
  return `${rows.join("\r\n")}\r\n`;
}
