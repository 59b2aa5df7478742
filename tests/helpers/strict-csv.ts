/**
 * A strict RFC 4180 reader for tests: every record ends with CRLF, a field is either unquoted (no
 * comma, quote, CR or LF in it) or wholly quoted with inner quotes doubled, and every record has as
 * many fields as the header. Anything else (a bare LF, a stray quote, text after a closing quote, a
 * short row) throws, so a writer that is merely "Excel-compatible" fails.
 */
export function parseStrictCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(
      `CSV not RFC 4180 at offset ${i}: ${why} (…${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}…)`,
    );
  };
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) fail("unterminated quoted field");
        const char = text[i] as string;
        if (char === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += char;
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r") {
        const char = text[i] as string;
        if (char === '"') fail("quote inside an unquoted field");
        if (char === "\n") fail("bare LF");
        field += char;
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ",") {
      i += 1;
      if (i >= text.length) fail("file ends after a comma");
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") {
      i += 2;
      records.push(record);
      record = [];
      continue;
    }
    fail(i >= text.length ? "last record not terminated by CRLF" : "expected a comma or CRLF after the field");
  }
  if (record.length > 0) fail("last record not terminated by CRLF");
  const width = records[0]?.length ?? 0;
  records.forEach((row, index) => {
    if (row.length !== width) throw new Error(`CSV record ${index + 1} has ${row.length} fields, the header ${width}`);
  });
  return records;
}
