import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Render isolation: renders share one browser, and the next render's page is made ready in advance
 * (lib/analyzer/render/spare.ts), so nothing a page leaves behind may reach the next render.
 * /isolation/write sets a cookie (by header and by script), localStorage, sessionStorage, IndexedDB and
 * Cache Storage, and loads a script the HTTP cache may keep for an hour; /isolation/read reports what it
 * finds in one link.
 */

let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite();
  renderer = createRenderer({
    config: parseConfig({
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
      RENDER_TIMEOUT_MS: "8000",
    }),
  });
});

afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

/** Waits until the renderer has a spare page ready, so the next render uses one (bounded). */
async function spareReady(): Promise<void> {
  const used = renderer.sparesUsed;
  // Each probe render takes the spare if one is ready; until then it makes its own page.
  for (let attempt = 0; attempt < 20 && renderer.sparesUsed === used; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await renderer.render(new URL(site.url("/about")));
  }
  // Give the page made after that render time to be ready for the render under test.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

function stateOf(html: string, path = "/isolation/state"): Record<string, string> {
  const match = new RegExp(`href="${path}\\?([^"]*)"`).exec(html);
  if (!match) throw new Error(`no state link in ${html.slice(0, 500)}`);
  return Object.fromEntries(new URLSearchParams((match[1] ?? "").replaceAll("&amp;", "&")));
}

describe("render isolation", () => {
  it("the probe sees state where there is some: the writing page reads back everything it wrote", async () => {
    const result = await renderer.render(new URL(site.url("/isolation/write")));
    expect(stateOf(result.html, "/isolation/self")).toEqual({
      cookie: "leak",
      local: "leak",
      session: "leak",
      idb: "leak",
      cache: "leak",
    });
  });

  it("no cookie, storage or cache state crosses from one render to the next, spare page included", async () => {
    const cacheableBefore = site.hits("/isolation/cacheable.js");
    const written = await renderer.render(new URL(site.url("/isolation/write")));
    expect(stateOf(written.html, "/isolation/self").local).toBe("leak");
    await spareReady();
    const sparesBefore = renderer.sparesUsed;
    const read = await renderer.render(new URL(site.url("/isolation/read")));
    // The read render used a page made while the writing page's browser state existed.
    expect(renderer.sparesUsed).toBe(sparesBefore + 1);
    expect(stateOf(read.html)).toEqual({ cookie: "none", local: "none", session: "none", idb: "none", cache: "none" });
    // The server saw no cookie, and the cacheable script was fetched again (no HTTP cache carried over).
    expect(site.headersOf("/isolation/read")?.cookie).toBeUndefined();
    expect(site.hits("/isolation/cacheable.js")).toBe(cacheableBefore + 2);
  });
});
