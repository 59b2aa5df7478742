import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { matchesTarget, normalizeTarget } from "@/lib/monitor/match";

describe("normalizeTarget", () => {
  it("serializes the WHATWG way without the fragment, and gives a bare host https:// and /", () => {
    expect(normalizeTarget("https://MySite.example:443/a/../b?x=1#frag", "exact")).toBe("https://mysite.example/b?x=1");
    expect(normalizeTarget("mysite.example", "domain")).toBe("https://mysite.example/");
    expect(normalizeTarget("  http://bücher.example/p ", "prefix")).toBe("http://xn--bcher-kva.example/p");
  });

  it.each(["ftp://mysite.example/", "javascript:alert(1)", "https://user:pw@mysite.example/", "", "https://"])(
    "refuses %j with 400 naming the field",
    (raw) => {
      const error = (() => {
        try {
          normalizeTarget(raw, "exact", "links[0].target");
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("INVALID_REQUEST");
      expect((error as ApiError).message).toMatch(/^links\[0\]\.target:/);
    },
  );
});

describe("matchesTarget", () => {
  it("exact: same serialization, fragment ignored, nothing else forgiven", () => {
    const tracked = { target: "https://mysite.example/page", match: "exact" as const };
    expect(matchesTarget("https://mysite.example/page#section", tracked)).toBe(true);
    expect(matchesTarget("https://mysite.example/page/", tracked)).toBe(false);
    expect(matchesTarget("http://mysite.example/page", tracked)).toBe(false);
    expect(matchesTarget("https://www.mysite.example/page", tracked)).toBe(false);
  });

  it("prefix: a string prefix of the serialization", () => {
    const tracked = { target: "https://mysite.example/blog/", match: "prefix" as const };
    expect(matchesTarget("https://mysite.example/blog/post-1?utm=x", tracked)).toBe(true);
    expect(matchesTarget("https://mysite.example/shop/", tracked)).toBe(false);
  });

  it("domain: any link to the target's site, never a look-alike", () => {
    const tracked = { target: "https://mysite.example/", match: "domain" as const };
    expect(matchesTarget("http://blog.mysite.example/x", tracked)).toBe(true);
    expect(matchesTarget("https://mysite.example.evil.example/", tracked)).toBe(false);
    expect(matchesTarget("https://evil-mysite.example/", tracked)).toBe(false);
    expect(matchesTarget("mailto:me@mysite.example", tracked)).toBe(false);
  });

  it("domain: sites follow the public suffix list's private section", () => {
    const tracked = { target: "https://alice.github.io/", match: "domain" as const };
    expect(matchesTarget("https://alice.github.io/repo", tracked)).toBe(true);
    expect(matchesTarget("https://bob.github.io/", tracked)).toBe(false);
  });
});
