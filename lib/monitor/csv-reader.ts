import { startsLikeFormula } from "../account/csv-cells";
import { ApiError } from "../errors";

/**
 * The import's CSV reader: RFC 4180 text (quotes doubled, CRLF, LF or CR between records) into records
 * of cells, and the undoing of the formula guard the exports put on cells (lib/account/csv-cells.ts), so
 * an export imports as it was.
 */

/** Undoes csvCell's formula guard on an imported cell. */
export function unguardCell(cell: string): string {
  return cell.length > 1 && cell.startsWith("'") && startsLikeFormula(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * Parses CSV text into records of cells: quoted cells may hold commas, quotes ("") and line breaks;
 * records end at CRLF, LF or CR; a UTF-8 byte order mark is dropped.
 * @throws ApiError INVALID_REQUEST naming the record when a quoted cell never ends.
 */
export function parseCsv(input: string): string[][] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let i = 0;
  let quoted = false;
  let cellStarted = false;
  const endCell = () => {
    record.push(cell);
    cell = "";
    cellStarted = false;
  };
  const endRecord = () => {
    endCell();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      cell += c;
      i += 1;
      continue;
    }
    if (c === '"' && !cellStarted) {
      quoted = true;
      cellStarted = true;
      i += 1;
    } else if (c === ",") {
      endCell();
      i += 1;
    } else if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      cell += c;
      cellStarted = true;
      i += 1;
    }
  }
  if (quoted)
    throw new ApiError("INVALID_REQUEST", `row ${records.length + 1}: a quoted cell is never closed.`, {
      hint: 'Close every quoted cell with a double quote; write a quote inside a cell as two ("").',
    });
  if (cellStarted || cell !== "" || record.length > 0) endRecord();
  return records;
}
