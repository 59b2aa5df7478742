import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nulPath, rejectNul } from "../../../lib/http/nul";
import { ApiError } from "../../../lib/errors";

/**
 * nulPath (lib/http/nul.ts) names the first key or string holding U+0000. It was recursive and copied
 * the path at every level: quadratic in the depth, and a stack overflow (500) near 4,000 levels. It is
 * iterative now, and must answer exactly what the recursive walk answered.
 */

const NUL = "\u0000";

/** The recursive walk it replaced, kept as the definition of the answers (small values only). */
function recursiveNulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes(NUL) ? path.join(".") || "body" : null;
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return [...path, key.replaceAll(NUL, "\\u0000")].join(".");
    const found = recursiveNulPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

const cases: Array<[string, unknown, string | null]> = [
  ["no NUL anywhere", { a: "x", b: [1, "y", { c: null }], d: true }, null],
  ["a scalar", 5, null],
  ["null", null, null],
  ["a string holding one is the body", `a${NUL}b`, "body"],
  ["a top-level field", { email: `a${NUL}@example.com` }, "email"],
  ["an array item's field", { links: [{ notes: "ok" }, { notes: `n${NUL}` }] }, "links.1.notes"],
  ["an array of strings", { tags: ["a", `b${NUL}`] }, "tags.1"],
  ["a key holding one, written escaped", { data: { [`na${NUL}me`]: "x" } }, "data.na\\u0000me"],
  ["a key is judged before its value", { [`k${NUL}`]: `v${NUL}` }, "k\\u0000"],
  ["the first key's whole value before the second key", { a: { deep: [`x${NUL}`] }, [`b${NUL}`]: 1 }, "a.deep.0"],
  ["the second key when the first value is clean", { a: { deep: ["x"] }, [`b${NUL}`]: 1 }, "b\\u0000"],
  ["an empty key at the top is the body", { "": `x${NUL}` }, "body"],
  ["an empty key further down keeps its dot", { "": { x: `y${NUL}` } }, ".x"],
  ["a query string's parameters", { q: "ok", tag: `t${NUL}` }, "tag"],
];

describe("nulPath", () => {
  it.each(cases)("%s → %s", (_name, value, expected) => {
    expect(recursiveNulPath(value)).toBe(expected);
    expect(nulPath(value)).toBe(expected);
  });

  it("answers what the recursive walk answered on random JSON values", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", ".", "", NUL, "é") });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(text, tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (json) => {
        expect(nulPath(json)).toBe(recursiveNulPath(json));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    [
      "arrays",
      `${"[".repeat(100_000)}"x\\u0000"${"]".repeat(100_000)}`,
      Array.from({ length: 100_000 }, () => "0").join("."),
    ],
    [
      "objects",
      `${'{"a":'.repeat(100_000)}"x\\u0000"${"}".repeat(100_000)}`,
      Array.from({ length: 100_000 }, () => "a").join("."),
    ],
  ])("walks %s 100,000 levels deep without a stack, and names the field down there", (_name, text, path) => {
    const value = JSON.parse(text) as unknown;
    expect(nulPath(value)).toBe(path);
    expect(nulPath(JSON.parse(text.replace("\\u0000", "")))).toBeNull();
  });

  it("rejectNul throws the field's 400 with the message the tests of the routes expect", () => {
    expect(() => rejectNul({ links: [{ notes: `n${NUL}` }] })).toThrow(
      new ApiError("INVALID_REQUEST", "links.0.notes: must not contain the NUL character (U+0000)."),
    );
    expect(() => rejectNul({ ok: "fine" })).not.toThrow();
  });
});
