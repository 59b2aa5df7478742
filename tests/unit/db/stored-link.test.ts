import { describe, expect, it } from "vitest";
import { storableText, toStoredLink } from "@/lib/db/stored-link";

describe("toStoredLink", () => {
  const link = {
    href: "https://a.example/\u0000x",
    position: 2,
    linkType: "external" as const,
    anchorText: "a\u0000b",
    isNofollow: true,
    isSponsored: false,
    isUgc: false,
    isImage: false,
    httpStatus: 200,
    matchedGroupName: "Network",
  };

  it("keeps exactly the public Link fields, in the schema's order, and nothing a row or an old shape adds", () => {
    const stored = toStoredLink({ ...link, auditId: "a1", extra: true } as typeof link);
    expect(Object.keys(stored)).toEqual([
      "href",
      "position",
      "linkType",
      "anchorText",
      "isNofollow",
      "isSponsored",
      "isUgc",
      "isImage",
      "httpStatus",
      "matchedGroupName",
    ]);
  });

  it("replaces U+0000, which PostgreSQL text and jsonb refuse, in href and anchor text", () => {
    const stored = toStoredLink(link);
    expect(stored.href).toBe("https://a.example/\uFFFDx");
    expect(stored.anchorText).toBe("a\uFFFDb");
    expect(storableText(null)).toBeNull();
    expect(storableText("plain")).toBe("plain");
  });
});
