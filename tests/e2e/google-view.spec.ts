import type { APIRequestContext, Page } from "@playwright/test";
import { signUp } from "./app-data";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * Googlebot's view where people see it (google-view.md §4; production build): a fixture page that writes
 * one link for visitors and another for Googlebot's user agent. The monitor page's "Google's view" panel
 * (status, links in each view, the links only one has), the badges "Not seen by Google" / "Only shown to
 * Googlebot" with their reasons in words, the member's switch (off and on again, kept across a reload),
 * and a saved URL audit's "Google's view: N links (visitor: M)" line, filter and badge. Looked at on a
 * laptop (1280) and a phone (390), light and dark: screenshots, no sideways scrolling, axe-clean.
 */

const PAGE = "/gview/cloaking";
const BOTH = `${FIXTURE_ORIGIN}/p/gview-article`;
const VISITOR_ONLY = `${FIXTURE_ORIGIN}/p/gview-deal`;
const GOOGLE_ONLY = `${FIXTURE_ORIGIN}/p/gview-offer`;

const CLOAKING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Guest post</title></head>
<body><main><h1>Guest post</h1><p>Read <a href="${BOTH}">the article</a>.</p><p id="slot"></p></main>
<script>
  const bot = /Googlebot/.test(navigator.userAgent);
  const a = document.createElement("a");
  a.href = bot ? "${GOOGLE_ONLY}" : "${VISITOR_ONLY}";
  a.textContent = bot ? "an offer for Google" : "a deal for visitors";
  document.getElementById("slot").append(a);
</script></body></html>`;

async function post(request: APIRequestContext, path: string, data?: unknown): Promise<{ id: string }> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await request.post(path, { data, headers: { origin: APP_ORIGIN } });
    // A scheduled check of a new monitor may hold it for a moment: "Check now" then answers 409.
    if (response.status() === 409) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
    return (await response.json()) as { id: string };
  }
  throw new Error(`${path} stayed busy`);
}

type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

/** Screenshots of each part (`scrollTo`: test ids) at 1280 and 390 px, light and dark; axe and no sideways scroll. */
async function lookAt(page: Page, shot: Shot, name: string, scrollTo: readonly string[]): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalScroll(page, `${name} at ${width}px, ${colorScheme}`);
      for (const [index, testId] of scrollTo.entries()) {
        await page.getByTestId(testId).scrollIntoViewIfNeeded();
        await shot(`google-view-${name}-${index + 1}-${width}-${colorScheme}`, { fullPage: false });
      }
      await expectAxeClean(page, `${name} at ${width}px, ${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the monitor page's Google's view: the panel, the badges with their reasons, and the switch", async ({
  page,
  shot,
}) => {
  test.setTimeout(240_000);
  await setFixturePage(PAGE, CLOAKING_PAGE);
  await signUp(page, "Gina", `gina-${Date.now()}@example.com`);
  const { id } = await post(page.request, "/api/account/monitors", {
    url: `${FIXTURE_ORIGIN}${PAGE}`,
    links: [{ target: VISITOR_ONLY }, { target: GOOGLE_ONLY }],
  });
  // Two checks: a link a visitor never gets is missing only once the second check confirms it.
  await post(page.request, `/api/account/monitors/${id}/check`);
  await post(page.request, `/api/account/monitors/${id}/check`);

  await page.goto(`/app/monitors/${id}`);
  const panel = page.getByRole("region", { name: "Google's view" });
  await expect(panel.getByTestId("google-view")).toContainText("OK: rendered as Googlebot Smartphone, 2 links");
  await expect(panel.getByTestId("google-view-counts")).toHaveText("Googlebot: 2 · visitor: 2");
  await expect(panel.getByTestId("only-visitor")).toContainText("Only a visitor gets (1)");
  await expect(panel.getByTestId("only-visitor").getByRole("listitem")).toHaveText([VISITOR_ONLY]);
  await expect(panel.getByTestId("only-google").getByRole("listitem")).toHaveText([GOOGLE_ONLY]);

  const hidden = page.getByTestId(`link-${VISITOR_ONLY}`);
  await expect(hidden.locator('[data-google-view="notInGoogleView"]')).toHaveText("Not seen by Google");
  await expect(hidden.locator('[data-reason="not_in_google_view"]')).toContainText(
    "Link not in Googlebot's view of the page (hidden from its user agent or its phone layout)",
  );
  const cloaked = page.getByTestId(`link-${GOOGLE_ONLY}`);
  await expect(cloaked.locator('[data-google-view="shownOnlyToGooglebot"]')).toHaveText("Only shown to Googlebot");
  await expect(cloaked.locator('[data-reason="shown_only_to_googlebot"]')).toContainText(
    "Link shown only to Googlebot, not to visitors (cloaking)",
  );
  await lookAt(page, shot, "monitor", ["google-view", `link-${VISITOR_ONLY}`, `link-${GOOGLE_ONLY}`]);

  // The member's switch: off, kept across a reload, then on again.
  const toggle = panel.getByRole("switch", { name: "Render as Googlebot" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(page.getByText("Google's view off: no link is judged by it any more.")).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(panel.getByTestId("google-view")).toContainText("Off for this monitor");
  await page.reload();
  await expect(panel.getByRole("switch", { name: "Render as Googlebot" })).toHaveAttribute("aria-checked", "false");
  await expect(panel.getByTestId("only-visitor")).toHaveCount(0);
  await lookAt(page, shot, "monitor-off", ["google-view"]);
  await panel.getByRole("switch", { name: "Render as Googlebot" }).click();
  await expect(panel.getByRole("switch", { name: "Render as Googlebot" })).toHaveAttribute("aria-checked", "true");
});

test("a saved URL audit: Google's view in numbers, the \"Not in Google's view\" filter and the badge", async ({
  page,
  shot,
}) => {
  test.setTimeout(180_000);
  await setFixturePage(PAGE, CLOAKING_PAGE);
  await signUp(page, "Gus", `gus-${Date.now()}@example.com`);
  const { id } = await post(page.request, "/api/account/audits", { url: `${FIXTURE_ORIGIN}${PAGE}` });

  await page.goto(`/app/audits/${id}`);
  await expect(page.getByTestId("audit-google-view")).toHaveText(
    "Google's view: 2 links (visitor: 2) · 1 of the visitor's links not in Google's view",
  );
  await page.getByLabel("Google's view").selectOption({ label: "Not in Google's view" });
  await expect(page.getByTestId("table-count")).toHaveText("Showing 1–1 of 1 matching (2 in all)");
  const badges = page.locator('[data-signal="not-in-google-view"]:visible');
  await expect(badges).toHaveCount(1);
  await expect(badges).toHaveText("Not seen by Google");
  await expect(page.getByRole("table").getByText("a deal for visitors").first()).toBeVisible();
  await lookAt(page, shot, "audit", ["audit-google-view", "table-count"]);
});
