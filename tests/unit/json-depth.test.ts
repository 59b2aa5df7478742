import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exceedsJsonDepth } from "../../lib/json-depth";
import { MAX_JSON_DEPTH } from "../../lib/limits";
import { parseJsonBytes } from "../../lib/http/read-body";
import { ApiError } from "../../lib/errors";

/**
 * The nesting guard every JSON request body passes before it is parsed (lib/json-depth.ts): exact on
 * valid JSON, blind to brackets inside strings, linear and free of recursion however deep the text.
 */

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
/** Alternating objects and arrays: `{"k":[{"k":[…]}]}`. */
const mixed = (depth: number) => {
  let text = "0";
  for (let level = depth; level >= 1; level--) text = level % 2 === 1 ? `{"k":${text}}` : `[${text}]`;
  return text;
};

/** The depth of a parsed value, the definition the guard must agree with (recursive: small values only). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Object.values(value);
  return 1 + (children.length === 0 ? 0 : Math.max(...children.map(depthOf)));
}

describe("exceedsJsonDepth", () => {
  it.each([
    ["arrays", arrays],
    ["objects", objects],
    ["objects and arrays alternating", mixed],
  ])("%s: at the limit passes, one level over does not", (_name, nest) => {
    expect(depthOf(JSON.parse(nest(MAX_JSON_DEPTH)))).toBe(MAX_JSON_DEPTH);
    expect(exceedsJsonDepth(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(exceedsJsonDepth(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it.each([
    ["a scalar", "42", 0],
    ["an empty object", "{}", 1],
    ["siblings do not add up", '{"a":[1],"b":[2],"c":{"d":[]}}', 3],
    ["whitespace between brackets", " [ [\n\t[ ] ] ] ", 3],
    ["brackets inside a string", '{"html":"[[[[{{{{<a>]]]]"}', 1],
    ["an escaped quote does not end the string", '["\\"[[[["]', 1],
    ["an escaped backslash before the closing quote does", '["\\\\",[[]]]', 3],
    ["three backslashes: an escaped backslash, then an escaped quote", '["\\\\\\"[[","x"]', 1],
    ["a key holding brackets", '{"[[[":{"{{{":0}}', 2],
    ["unicode escapes and non-ASCII text", '{"é\\u005b":["😀[",{"\\u0022":[]}]}', 4],
  ])("%s: %s is %i deep", (_name, text, depth) => {
    expect(depthOf(JSON.parse(text))).toBe(depth);
    expect(exceedsJsonDepth(text, depth)).toBe(false);
    if (depth > 0) expect(exceedsJsonDepth(text, depth - 1)).toBe(true);
  });

  it("agrees with the parsed value's depth on random JSON, tricky strings included", () => {
    const tricky = fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", "é", "\u0000") });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        tricky,
        fc.integer(),
        fc.constant(null),
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(tricky, tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (json, limit) => {
        const text = JSON.stringify(json);
        expect(exceedsJsonDepth(text, limit)).toBe(depthOf(json) > limit);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["arrays", arrays(100_000)],
    ["objects", objects(100_000)],
    ["objects and arrays", mixed(100_000)],
  ])("answers for %s 100,000 levels deep without a stack", (_name, text) => {
    expect(exceedsJsonDepth(text, MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth(text, 100_000)).toBe(false);
  });

  it("lends no extra levels for stray closers before the brackets (invalid JSON)", () => {
    expect(exceedsJsonDepth(`${"]}".repeat(10)}${arrays(MAX_JSON_DEPTH + 1)}`, MAX_JSON_DEPTH)).toBe(true);
  });

  it("reads megabytes of strings full of escapes in one pass", () => {
    // A backslash-heavy string: a scan that re-read the backslashes before every quote would be quadratic.
    const text = JSON.stringify({ html: '\\"'.repeat(1_000_000), more: [["\\".repeat(1_000_000)]] });
    expect(exceedsJsonDepth(text, 3)).toBe(false);
    expect(exceedsJsonDepth(text, 2)).toBe(true);
  });

  it.each([
    ["a missing bracket", '{"a":[1,2}'],
    ["an unterminated string", '["abc'],
    ["unclosed arrays under the limit", arrays(10).slice(0, 10)],
    ["stray closers first", `${"]".repeat(10)}${arrays(MAX_JSON_DEPTH)}`],
    ["a bare word", "nope"],
  ])("invalid JSON within the limit is left to JSON.parse's own error: %s", (_name, text) => {
    expect(exceedsJsonDepth(text, MAX_JSON_DEPTH)).toBe(false);
    expect(() => parseJsonBytes(new TextEncoder().encode(text))).toThrow("The request body is not valid JSON.");
  });
});

describe("parseJsonBytes refuses a body nested too deep before parsing it", () => {
  it.each([
    ["arrays", arrays(MAX_JSON_DEPTH + 1)],
    ["objects", objects(MAX_JSON_DEPTH + 1)],
    ["100,000 levels of arrays", arrays(100_000)],
    ["100,000 levels, never closed", "[".repeat(100_000)],
  ])("%s → 400 INVALID_REQUEST saying so", (_name, text) => {
    let thrown: unknown;
    try {
      parseJsonBytes(new TextEncoder().encode(text));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      status: 400,
      code: "INVALID_REQUEST",
      message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
    });
  });

  it("parses a body at the limit", () => {
    expect(depthOf(parseJsonBytes(new TextEncoder().encode(objects(MAX_JSON_DEPTH))))).toBe(MAX_JSON_DEPTH);
  });
});
