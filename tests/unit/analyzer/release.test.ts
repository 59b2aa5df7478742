import { describe, expect, it } from "vitest";
import { inertWindow } from "@/lib/analyzer/document/parse";
import { analyzeDocument } from "@/lib/analyzer/pipeline";

describe("document release", () => {
  it("leaves nothing of an analysed document in the shared window's named properties", () => {
    // jsdom tracks id/name elements of every document parsed with the window's DOMParser; a tracked
    // element keeps its whole document alive (the soak run's worker memory growth).
    const html =
      '<div id="linklensLeakProbe"><a href="/x" id="linklensLeakLink">x</a></div><form name="linklensLeakForm"></form>';
    analyzeDocument({ html, pageUrl: "https://example.com/", scripting: false });
    analyzeDocument({ html, pageUrl: "https://example.com/", scripting: true });
    expect("linklensLeakProbe" in inertWindow).toBe(false);
    expect("linklensLeakLink" in inertWindow).toBe(false);
    expect("linklensLeakForm" in inertWindow).toBe(false);
  });
});
