import { describe, expect, it } from "vitest";
import { googleShotPosition, wantsGoogleShot } from "@/lib/evidence/google-shot";

describe("when evidence keeps Googlebot's screenshot (google-view.md §2)", () => {
  it.each([
    [null, false],
    [{ value: "counts", reasons: [] }, false],
    [{ value: "does_not_count", reasons: ["hidden", "page_noindex"] }, false],
    [{ value: "does_not_count", reasons: ["not_in_google_view"] }, true],
    [{ value: "does_not_count", reasons: ["missing", "shown_only_to_googlebot"] }, true],
  ] as const)("verdict %j → %s", (verdict, wanted) => {
    expect(wantsGoogleShot(verdict ? { value: verdict.value, reasons: [...verdict.reasons] } : null)).toBe(wanted);
  });

  it("points at the first matching link of Googlebot's render, else the top of the page", () => {
    const links = [
      { href: "https://a.example/", position: 1 },
      { href: "https://shop.example/x", position: 2 },
      { href: "https://shop.example/y", position: 3 },
    ];
    const shop = (href: string) => href.startsWith("https://shop.example/");
    expect(googleShotPosition(links, shop)).toBe(2);
    expect(googleShotPosition(links, () => false)).toBeNull();
    expect(googleShotPosition(null, shop)).toBeNull();
  });
});
