import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { createRenderer, type Renderer, type RenderResult } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { DECLARATIVE_ORDER, SCRIPTED_ORDER, SHADOW_CASES } from "@/scripts/lib/capture-pages";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * What every render captures (google-view.md §1), with a real Chromium and the fixture site's pages
 * (scripts/lib/capture-pages.ts): content that loads when it comes into view, once the viewport has grown
 * to the document (render/viewport.ts), and links inside shadow roots of every kind in flattened-tree
 * order (render/capture.ts serializes them, document/shadow-trees.ts flattens them). The rendered DOM goes
 * through the same pipeline as in the worker.
 */

let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite();
  const config = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    // Generous: the tests are about what is captured, never about how fast.
    RENDER_TIMEOUT_MS: "20000",
  });
  renderer = createRenderer({ config, settleMaxMs: 10_000 });
});

afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

async function render(path: string): Promise<RenderResult> {
  return renderer.render(new URL(site.url(path)));
}

/** The analysis of a rendered page (URL mode's reading), and its links' names in position order. */
function analyse(rendered: RenderResult) {
  const analysis = analyzeDocument({ html: rendered.html, pageUrl: rendered.finalUrl, scripting: true });
  const names = analysis.links.map((link) => new URL(link.href).pathname.replace(/^\/capture-link\//, ""));
  return { analysis, names };
}

describe("lazy content: the viewport grows to the document's height", () => {
  it("links an IntersectionObserver adds to a box 3,200 px down are captured (a task its callback schedules, a fetch it starts)", async () => {
    const rendered = await render("/capture/lazy/observer");
    expect(analyse(rendered).names).toEqual(["top", "observer-scheduled", "observer-fetched"]);
    expect(rendered.grown?.height).toBeGreaterThan(3_200);
  });

  it('loading="lazy": the link an iframe 8,000 px down adds and the link an image\'s event reveals are captured', async () => {
    const { names } = analyse(await render("/capture/lazy/loading-attribute"));
    expect(names.sort()).toEqual(["lazy-iframe", "lazy-image", "top"]);
  });

  it("a scroll-event loader is not: nothing is scrolled and no scroll event is sent (the observer beside it shows the page grew)", async () => {
    const { names } = analyse(await render("/capture/lazy/scroll-loader"));
    expect(names).toEqual(["top", "observer-control"]);
  });

  it("giving the viewport back changes nothing captured: the page would take its lazy link back and remove a link on short screens", async () => {
    const { names } = analyse(await render("/capture/lazy/takes-back"));
    expect(names).toEqual(["top", "tall-only", "virtualized"]);
  });

  it("grows at most to 12,000 px, never wider (as the page itself sees it)", async () => {
    site.setPage("/capture/very-tall", {
      body: `<!doctype html><body style="margin:0"><div style="height:30000px"></div><script>addEventListener('resize', function () { document.body.dataset.seen = innerWidth + 'x' + innerHeight; });</script></body>`,
    });
    const rendered = await render("/capture/very-tall");
    expect(rendered.grown?.height).toBe(12_000);
    expect(rendered.html).toContain('data-seen="1280x12000"');
  });

  it("a page no taller than the viewport is not grown; a tall page with nothing lazy ends its second settle at the first look", async () => {
    expect((await render("/capture/short")).grown).toBeNull();
    const tall = await render("/capture/tall-static");
    expect(tall.grown?.height).toBeGreaterThan(4_000);
    // Nothing reacted to the growth, and the first settle had already waited out the idle windows.
    expect(tall.grown?.settled).toEqual({ ended: "idle", waitedFor: {} });
    expect(analyse(tall).names).toEqual(["top", "end"]);
  });
});

describe("shadow DOM: links inside shadow roots, in flattened-tree order", () => {
  it.each(SHADOW_CASES.map((rule, index) => [rule.rule, index] as const))(
    "%s (Chromium agrees with the worker's flattening)",
    async (_rule, index) => {
      expect(analyse(await render(`/capture/shadow/case/${index}`)).names).toEqual(SHADOW_CASES[index]?.order);
    },
  );

  it("declarative roots (open, closed, nested) and named, default and fallback slots, each link once", async () => {
    expect(analyse(await render("/capture/shadow/declarative")).names).toEqual(DECLARATIVE_ORDER);
  });

  it("roots a script attaches, open and closed, nested, and a link slotted into a closed root; a template a script writes stays inert", async () => {
    expect(analyse(await render("/capture/shadow/scripted")).names).toEqual(SCRIPTED_ORDER);
  });

  it("the snapshot shows every shadow link in place, with its position", async () => {
    for (const path of ["/capture/shadow/declarative", "/capture/shadow/scripted"]) {
      const { analysis } = analyse(await render(path));
      expect(analysis.links.length).toBeGreaterThan(5);
      for (const link of analysis.links)
        expect(analysis.sanitizedHtml, path).toMatch(
          new RegExp(`<a href="${new URL(link.href).pathname}"[^>]* data-linklens-position="${link.position}">`),
        );
      expect(analysis.sanitizedHtml).not.toMatch(/<template|<slot|shadowrootmode/);
    }
  });
});
