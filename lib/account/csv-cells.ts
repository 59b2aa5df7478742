/**
 * RFC 4180 CSV cells and rows (CRLF line ends; a field with a comma, quote, CR or LF quoted, quotes
 * doubled), with the OWASP "CSV injection" defence: a cell that starts with `=`, `+`, `-`, `@`, tab or
 * carriage return gets a leading `'`, so a spreadsheet shows it as text instead of running it as a
 * formula. Anchor text and hrefs come from arbitrary pages, and SEO teams open these files in Excel.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Whether a spreadsheet would read this text as a formula (what csvCell guards against). */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** One cell: null and undefined are empty, booleans true/false. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let cell = String(value);
  if (FORMULA_START.test(cell)) cell = `'${cell}`;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** Records as CSV text: cells joined by commas, every record ended by CRLF. */
export function toCsv(records: ReadonlyArray<ReadonlyArray<CsvValue>>): string {
  return records.map(csvRow).join("");
}
