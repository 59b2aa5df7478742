import { describe, expect, it } from "vitest";
import { fitEscaped, joinWithin, linkHref, oneLine } from "@/lib/webhooks/channels/text";

/** Page text made to fit a chat message (lib/webhooks/channels/text.ts): one line, escaped, cut to a limit. */

const backslash = (text: string) => text.replace(/[*\\]/g, "\\$&");
const entities = (text: string) => text.replace(/&/g, "&amp;");

describe("oneLine", () => {
  it.each([
    ["a\nb", "a b"],
    ["a\r\n\r\nb", "a b"],
    ["a\u2028b\u2029c", "a b c"],
    ["tab\there\u0000nul\u0085nel", "tab here nul nel"],
    ["no break", "no break"],
  ])("%j → %j", (text, line) => {
    expect(oneLine(text)).toBe(line);
  });
});

describe("fitEscaped", () => {
  it.each([
    ["short text unchanged but escaped", "a*b", 10, backslash, "a\\*b"],
    ["cut before escaping, never inside an escape", "*".repeat(10), 7, backslash, "\\*\\*\\*…"],
    ["an entity is never cut in half", "&".repeat(10), 12, entities, "&amp;&amp;…"],
    ["an emoji counts two and is never split", "🏃🏃🏃🏃", 5, (t: string) => t, "🏃🏃…"],
    ["exactly at the limit", "abcde", 5, (t: string) => t, "abcde"],
    ["one over", "abcdef", 5, (t: string) => t, "abcd…"],
    ["line breaks become spaces first", "a\nb", 5, (t: string) => t, "a b"],
  ])("%s", (_name, text, max, escape, fitted) => {
    const result = fitEscaped(text, max, escape);
    expect(result).toBe(fitted);
    expect(result.length).toBeLessThanOrEqual(max);
  });

  it("10,000 characters of what escapes longest fit any limit", () => {
    for (const max of [1, 2, 7, 100, 2000, 4096]) {
      const result = fitEscaped('&<>"'.repeat(2500), max, (t) => t.replace(/[&<>"]/g, "&quot;"));
      expect(result.length).toBeLessThanOrEqual(max);
    }
  });
});

describe("joinWithin", () => {
  it("keeps head and tail, as many middle lines as fit, and says when some were left out", () => {
    expect(joinWithin(["H"], ["aa", "bb", "cc"], ["T"], 100)).toBe("H\naa\nbb\ncc\nT");
    // "H\naa\nbb\n…\nT" is 11, "H\naa\n…\nT" 9.
    expect(joinWithin(["H"], ["aa", "bb", "cc"], ["T"], 11)).toBe("H\naa\nbb\n…\nT");
    expect(joinWithin(["H"], ["aa", "bb", "cc"], ["T"], 10)).toBe("H\naa\n…\nT");
    // No room even for "…": head and tail alone.
    expect(joinWithin(["head"], ["one"], ["tail"], 10)).toBe("head\ntail");
    // The last middle line needs no room for "…".
    expect(joinWithin(["H"], ["aa", "bb"], ["T"], 10)).toBe("H\naa\nbb\nT");
    expect(joinWithin([], [], [], 10)).toBe("");
  });

  it.each([10, 11, 12, 13, 50])("within %i", (max) => {
    expect(joinWithin(["head"], ["one", "two", "three", "four"], ["tail"], max).length).toBeLessThanOrEqual(max);
  });
});

describe("linkHref", () => {
  it.each([
    ["https://example.org/a(b)", "()", "https://example.org/a%28b%29"],
    ["https://example.org/a|b?x=<y>", "|<>", "https://example.org/a%7Cb?x=%3Cy%3E"],
    ["https://Example.org/a b", "", "https://example.org/a%20b"],
    ["mine.example", "", null],
    ["javascript:alert(1)", "", null],
    ["ftp://example.org/", "", null],
  ])("%s (reserving %j) → %s", (url, reserved, href) => {
    expect(linkHref(url, reserved)).toBe(href);
  });
});
