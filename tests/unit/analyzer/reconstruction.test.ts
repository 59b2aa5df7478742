import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { estimateNesting, NESTING_LIMITS } from "@/lib/analyzer/document/nesting";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "@/scripts/lib/corpus";

/**
 * Formatting elements left open across paragraphs are re-created by the tree builder for every one of
 * them; that is refused by the pre-scan (422, before jsdom) instead of pinning a worker for its cap.
 */
const SHARED = sharedCorpusDir();

function openFormatting(count: number): string {
  return Array.from({ length: count }, (_, i) => `<b a${i}>`).join("");
}

function refusal(html: string): string {
  try {
    analyzeDocument({ html, pageUrl: "https://example.com/", scripting: false });
    return "analysed";
  } catch (error) {
    return error instanceof ApiError ? `${error.code}: ${error.message}` : `other: ${String(error)}`;
  }
}

describe("active-formatting reconstruction guard", () => {
  it.each([
    [100, 5_000],
    [10, 5_000],
    [50, 1_000],
    [3, 2_000],
  ])("refuses %i open formatting tags re-created in %i paragraphs before parsing", (tags, paragraphs) => {
    const html = "<p>" + openFormatting(tags) + "<p>x".repeat(paragraphs);
    expect(estimateNesting(html).reconstructed).toBe(tags * paragraphs);
    expect(refusal(html)).toBe(
      "UNPROCESSABLE_PAGE: The document re-opens too many unclosed formatting tags to analyse.",
    );
  });

  it("models what the tree builder re-creates: nothing for closed or block-only markup", () => {
    expect(estimateNesting("<p><b>x</b><p>y".repeat(3_000)).reconstructed).toBe(0);
    // The <b> closed with its paragraph is re-created for the next text, even inside a <div>.
    expect(estimateNesting("<p><b>x<p><div>y</div>").reconstructed).toBe(1);
    expect(estimateNesting("<p><b>x<p><div> </div>").reconstructed).toBe(0);
    // Noah's Ark: at most three identical entries stay on the list.
    expect(estimateNesting("<p>" + "<b>".repeat(100) + "<p>x").reconstructed).toBe(3);
    // A table cell is a marker: formatting outside it is not re-created inside it.
    expect(estimateNesting("<p><b><i><table><tr><td>x</td></tr></table>").reconstructed).toBe(0);
  });

  it("still analyses a page with a few unclosed formatting tags across many paragraphs", () => {
    const html =
      '<p><font face="Arial"><b>' +
      Array.from({ length: 400 }, (_, i) => `<p>para ${i} <a href="/p/${i}">link</a>`).join("");
    expect(estimateNesting(html).reconstructed).toBeLessThanOrEqual(NESTING_LIMITS.reconstructed);
    expect(refusal(html)).toBe("analysed");
  });

  // The vendored sample on every clone; the 170-page corpus too when it sits beside the repository.
  const corpora: Array<[name: string, dir: string, atLeast: number]> = [["the vendored sample", SAMPLE_CORPUS_DIR, 10]];
  if (SHARED) corpora.push(["the shared corpus", SHARED, 100]);
  it.each(corpora)("refuses none of the real pages of %s", (_, dir, atLeast) => {
    const pages = readdirSync(dir).filter((name) => name.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(atLeast);
    const over = pages.filter((name) => {
      const estimate = estimateNesting(readFileSync(path.join(dir, name), "utf8"));
      return (
        estimate.maxDepth > NESTING_LIMITS.maxDepth ||
        estimate.totalDepth > NESTING_LIMITS.totalDepth ||
        estimate.reconstructed > NESTING_LIMITS.reconstructed
      );
    });
    expect(over).toEqual([]);
  });
});
