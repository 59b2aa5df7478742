import { analyzePaste, expect, snapshotFrame, test } from "./test";
import { FIXTURE_ORIGIN } from "./ports";

/**
 * The snapshot fetches nothing by default: the analysed page's images, stylesheets, @imports and CSS
 * url()s all point at the fixture server, which counts what it receives. Only after the visitor ticks
 * "Load images from the page" do the images (and nothing else) load.
 */

async function assetHits(): Promise<Record<string, number>> {
  const response = await fetch(`${FIXTURE_ORIGIN}/asset-hits`);
  return (await response.json()) as Record<string, number>;
}

test("the snapshot loads nothing remote until the visitor opts in to images", async ({ page }) => {
  const run = `run-${Date.now()}`;
  const asset = (name: string) => `${FIXTURE_ORIGIN}/asset/${run}/${name}`;
  const html = `<!doctype html><html><head><title>Remote resources</title>
<link rel="stylesheet" href="${asset("linked.css")}">
<style>@import url("${asset("imported.css")}"); .hero { background-image: url(${asset("background.png")}); }</style>
</head><body>
<p class="hero">Hero</p>
<p><img src="${asset("photo.png")}" srcset="${asset("photo-2x.png")} 2x" alt="Photo"> <a href="https://example.org/">Partner</a></p>
<p style="background: url('${asset("inline.png")}')"><a href="/about">About</a></p>
</body></html>`;

  await page.goto("/");
  await analyzePaste(page, html, "shop.example.com");
  const frame = snapshotFrame(page);
  await expect(frame.getByRole("link", { name: "Partner" })).toBeVisible();
  // The frame has loaded (its links are laid out) and its load event has fired: nothing was requested.
  const iframe = page.locator('iframe[title^="Sanitized snapshot"]');
  await expect
    .poll(() => iframe.evaluate((element) => (element as HTMLIFrameElement).contentDocument?.readyState))
    .toBe("complete");
  const before = Object.keys(await assetHits()).filter((path) => path.includes(run));
  expect(before).toEqual([]);

  const toggle = page.getByRole("checkbox", { name: "Load images from the page" });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(frame.getByRole("img", { name: "Photo" })).toBeVisible();
  await expect
    .poll(
      async () => Object.keys(await assetHits()).filter((path) => path.includes(run) && path.includes("photo")).length,
    )
    .toBeGreaterThan(0);
  await expect(frame.getByRole("img", { name: "Photo" })).toHaveJSProperty("naturalWidth", 1);
  // Stylesheets and @imports stay off even then.
  const after = Object.keys(await assetHits()).filter((path) => path.includes(run));
  expect(after.some((path) => path.endsWith(".css"))).toBe(false);
});
