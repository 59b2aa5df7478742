import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "@/lib/account/csv-cells";
import { parseStrictCsv } from "../../helpers/strict-csv";

/** What a reader gets back for a written cell: the value, with the injection guard's apostrophe. */
const expected = (value: string | number | boolean | null) => {
  if (value === null) return "";
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
};

describe("CSV writer (RFC 4180)", () => {
  it("quotes fields with a comma, quote, CR or LF and doubles quotes; CRLF ends each record", () => {
    expect(csvRow(["plain", 'say "hi"', "a,b", "line\nbreak", "cr\rhere", null, true, false, 42])).toBe(
      'plain,"say ""hi""","a,b","line\nbreak","cr\rhere",,true,false,42\r\n',
    );
  });

  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ["+1+1", "'+1+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\r=1", `"'\r=1"`],
    ["safe = later", "safe = later"],
  ])("defuses a formula-looking cell: %j → %j", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("round-trips any cells through a strict parser (with the apostrophe where a formula could start)", () => {
    const value = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("=1", "+", "-", "@", "\t", "\r", '"', ",", "\r\n", "\n", ""),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 20 }),
        (rows) => {
          const text = csvRow(["a", "b", "c"]) + rows.map((row) => csvRow(row)).join("");
          const parsed = parseStrictCsv(text);
          expect(parsed[0]).toEqual(["a", "b", "c"]);
          expect(parsed.slice(1)).toEqual(rows.map((row) => row.map(expected)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("the strict parser itself refuses what RFC 4180 does not allow", () => {
    expect(() => parseStrictCsv("a,b\nc,d\n")).toThrow(/bare LF|CRLF/);
    expect(() => parseStrictCsv('a,b"c\r\n')).toThrow(/quote inside/);
    expect(() => parseStrictCsv('"a"b,c\r\n')).toThrow(/after the field/);
    expect(() => parseStrictCsv("a,b\r\nc\r\n")).toThrow(/2 has 1 fields/);
    expect(() => parseStrictCsv("a,b")).toThrow(/not terminated/);
    expect(parseStrictCsv('"x,""y""\r\nz",\r\n')).toEqual([['x,"y"\r\nz', ""]]);
  });
});
