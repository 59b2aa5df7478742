import { describe, expect, it } from "vitest";
import { COMPARED_FIELDS, compareLinks } from "@/lib/account/audit-compare";
import type { Link } from "@/lib/api/schemas";

let next = 0;
function link(href: string, overrides: Partial<Link> = {}): Link {
  next += 1;
  return {
    href,
    position: next,
    linkType: "external",
    anchorText: href,
    isNofollow: false,
    isSponsored: false,
    isUgc: false,
    isImage: false,
    httpStatus: null,
    matchedGroupName: null,
    ...overrides,
  };
}
/** Positions 1..n as an audit has them. */
const numbered = (links: Link[]) => links.map((l, i) => ({ ...l, position: i + 1 }));

describe("compareLinks", () => {
  it("finds added and removed links by href", () => {
    const before = numbered([link("https://a.example/"), link("https://gone.example/")]);
    const after = numbered([link("https://a.example/"), link("https://new.example/")]);
    const result = compareLinks(before, after);
    expect(result.added.map((l) => l.href)).toEqual(["https://new.example/"]);
    expect(result.removed.map((l) => l.href)).toEqual(["https://gone.example/"]);
    expect(result.changed).toEqual([]);
  });

  it("names every field that changed, and keeps both versions", () => {
    const before = numbered([link("https://a.example/", { anchorText: "Buy", isNofollow: false, httpStatus: 200 })]);
    const after = numbered([
      link("https://a.example/", {
        anchorText: "Buy now",
        isNofollow: true,
        httpStatus: 404,
        linkType: "internal",
        matchedGroupName: "Network",
      }),
    ]);
    const { changed } = compareLinks(before, after);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toEqual({
      href: "https://a.example/",
      fields: ["linkType", "anchorText", "isNofollow", "httpStatus", "matchedGroupName"],
      before: before[0],
      after: after[0],
    });
  });

  it("each field alone is detected", () => {
    for (const field of COMPARED_FIELDS) {
      const original = link("https://f.example/", { isImage: false });
      const value =
        typeof original[field] === "boolean"
          ? !original[field]
          : field === "httpStatus"
            ? 500
            : field === "linkType"
              ? "ignored"
              : "other";
      const { changed } = compareLinks([original], [{ ...original, [field]: value }]);
      expect(changed.map((c) => c.fields)).toEqual([[field]]);
    }
  });

  it("never reports position: a link pushed down the page by a new one above it is unchanged", () => {
    const before = numbered([link("https://a.example/"), link("https://b.example/")]);
    const after = numbered([link("https://inserted.example/"), link("https://a.example/"), link("https://b.example/")]);
    const result = compareLinks(before, after);
    expect(result.changed).toEqual([]);
    expect(result.added.map((l) => [l.href, l.position])).toEqual([["https://inserted.example/", 1]]);
    expect(result.removed).toEqual([]);
  });

  it("pairs the n-th occurrence of an href with the n-th in the other audit", () => {
    const href = "https://dup.example/";
    const before = numbered([
      link(href, { anchorText: "first" }),
      link("https://x.example/"),
      link(href, { anchorText: "second", isNofollow: true }),
    ]);
    const after = numbered([
      link(href, { anchorText: "first" }),
      link(href, { anchorText: "second" }),
      link(href, { anchorText: "third" }),
    ]);
    const result = compareLinks(before, after);
    // 1st ↔ 1st unchanged; 2nd ↔ 2nd lost its nofollow; the 3rd is new.
    expect(result.changed.map((c) => [c.before.position, c.after.position, c.fields])).toEqual([
      [3, 2, ["isNofollow"]],
    ]);
    expect(result.added.map((l) => [l.href, l.position, l.anchorText])).toEqual([[href, 3, "third"]]);
    expect(result.removed.map((l) => l.href)).toEqual(["https://x.example/"]);
  });

  it("a duplicate that disappears is removed once, the later occurrence", () => {
    const href = "https://dup.example/";
    const before = numbered([link(href, { anchorText: "one" }), link(href, { anchorText: "two" })]);
    const after = numbered([link(href, { anchorText: "one" })]);
    const result = compareLinks(before, after);
    expect(result.removed.map((l) => [l.position, l.anchorText])).toEqual([[2, "two"]]);
    expect(result.added).toEqual([]);
    expect(result.changed).toEqual([]);
  });

  it("treats an absent isImage like null, and compares an audit with itself as unchanged", () => {
    const withNull = link("https://i.example/", { isImage: null });
    const { isImage: _omitted, ...absent } = withNull;
    expect(compareLinks([withNull], [absent as Link])).toEqual({ added: [], removed: [], changed: [] });
    const audit = numbered([
      link("https://a.example/"),
      link("https://a.example/"),
      link("mailto:x@example.com", { linkType: "ignored" }),
    ]);
    expect(compareLinks(audit, audit)).toEqual({ added: [], removed: [], changed: [] });
  });

  it("orders added and changed by the later audit, removed by the earlier", () => {
    const before = numbered([
      link("https://r2.example/"),
      link("https://c.example/", { httpStatus: 200 }),
      link("https://r1.example/"),
    ]);
    const after = numbered([
      link("https://a2.example/"),
      link("https://c.example/", { httpStatus: 301 }),
      link("https://a1.example/"),
    ]);
    const result = compareLinks(before, after);
    expect(result.added.map((l) => l.href)).toEqual(["https://a2.example/", "https://a1.example/"]);
    expect(result.removed.map((l) => l.href)).toEqual(["https://r2.example/", "https://r1.example/"]);
  });
});
