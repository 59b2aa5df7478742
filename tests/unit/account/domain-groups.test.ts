import { describe, expect, it } from "vitest";
import { createGroupSchema, updateGroupSchema } from "@/lib/schemas/domain-groups";
import { normalizeDomains } from "@/lib/account/domain-groups";
import { ApiError } from "@/lib/errors";

describe("domain group input", () => {
  it("stores hostnames lowercased, in punycode, without a trailing dot; duplicates collapse in first-mention order", () => {
    const { domains, sites } = normalizeDomains([
      " Example.COM ",
      "bücher.example",
      "example.com.",
      "blog.example.com",
      "xn--bcher-kva.example",
      "a.github.io",
      "b.github.io",
      "192.0.2.7",
    ]);
    expect(domains).toEqual([
      "example.com",
      "xn--bcher-kva.example",
      "blog.example.com",
      "a.github.io",
      "b.github.io",
      "192.0.2.7",
    ]);
    // Sites: blog.example.com is example.com's; github.io subdomains are sites of their own (private suffix list).
    expect(sites).toEqual([
      { site: "example.com", hostname: "example.com" },
      { site: "xn--bcher-kva.example", hostname: "xn--bcher-kva.example" },
      { site: "a.github.io", hostname: "a.github.io" },
      { site: "b.github.io", hostname: "b.github.io" },
      { site: "192.0.2.7", hostname: "192.0.2.7" },
    ]);
  });

  it.each([
    "https://example.com/",
    "example.com/path",
    "example.com:8080",
    "user@example.com",
    "exa mple.com",
    "",
    "a..b",
    "[::1]",
  ])("refuses %j, naming its index", (bad) => {
    let error: unknown;
    try {
      normalizeDomains(["fine.example", bad]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("INVALID_REQUEST");
    expect((error as ApiError).message).toMatch(/^domains\.1: /);
  });

  it("validates name and domain counts with messages that name the field", () => {
    const issue = (input: unknown, schema = createGroupSchema) => {
      const parsed = schema.safeParse(input);
      return parsed.success ? null : `${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`;
    };
    expect(issue({ name: "  Network  ", domains: ["a.example"] })).toBeNull();
    expect(createGroupSchema.parse({ name: "  Network  ", domains: ["a.example"] }).name).toBe("Network");
    expect(issue({ name: "   ", domains: ["a.example"] })).toMatch(/^name: must be 1–100/);
    expect(issue({ name: "x".repeat(101), domains: ["a.example"] })).toMatch(/^name: /);
    expect(issue({ name: "N", domains: [] })).toMatch(/^domains: list at least one/);
    expect(issue({ name: "N", domains: Array.from({ length: 501 }, (_, i) => `s${i}.example`) })).toMatch(
      /^domains: at most 500/,
    );
    expect(issue({ name: "N", domains: ["a.example"], extra: 1 })).toMatch(/extra|Unrecognized/);
    expect(issue({}, updateGroupSchema as never)).toMatch(/send name, domains or both/);
    expect(issue({ name: "Renamed" }, updateGroupSchema as never)).toBeNull();
  });
});
