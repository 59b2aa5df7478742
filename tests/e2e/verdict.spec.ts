import type { APIRequestContext, Page } from "@playwright/test";
import { signUp } from "./app-data";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * Placement verdict in the app (production build, the fixture site's /verdict pages): verdict badges
 * with reasons in words on the monitor and links pages, the verdict filter, the page's signals on the
 * monitor page; hidden / script only / region badges and their filters in a saved audit. Every view is
 * looked at on a laptop (1280) and a phone (390): screenshots, no sideways scrolling, axe-clean.
 */

const TARGET = `${FIXTURE_ORIGIN}/p/verdict-target`;
const WIDTHS = [1280, 390] as const;

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

/** A monitor of a fixture page tracking the verdict target, checked now; its id. */
async function watch(request: APIRequestContext, path: string): Promise<string> {
  const { id } = await post(request, "/api/account/monitors", {
    url: `${FIXTURE_ORIGIN}${path}`,
    links: [{ target: TARGET }],
  });
  await post(request, `/api/account/monitors/${id}/check`);
  return id;
}

async function lookAt(
  page: Page,
  shot: (name: string, options?: { fullPage?: boolean }) => Promise<void>,
  name: string,
): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalScroll(page, `${name} at ${width}px`);
    await shot(`verdict-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAxeClean(page, name);
}

test("verdicts with reasons, the page's signals, the verdict filter, and an audit's signal badges and filters", async ({
  page,
  shot,
}) => {
  test.setTimeout(240_000);
  const run = Date.now();
  await signUp(page, "Vera", `vera-${run}@example.com`);
  const api = page.request;
  const many = await watch(api, "/verdict/many-reasons");
  await watch(api, "/verdict/counts");
  await watch(api, "/verdict/region/footer");
  await watch(api, "/verdict/hidden/display-none");
  await watch(api, "/verdict/robots-disallowed");

  // The monitor page: the verdict badge, its reasons in words, and what the page says about itself.
  await page.goto(`/app/monitors/${many}`);
  const row = page.getByTestId(`link-${TARGET}`);
  await expect(row.getByText("Doesn't count", { exact: true })).toBeVisible();
  for (const words of [
    "Link is nofollow",
    "Page is set to noindex",
    "Link only present after JavaScript",
    "Link in a header, navigation, sidebar or footer",
  ]) {
    await expect(row.getByText(words, { exact: true })).toBeVisible();
  }
  await expect(row.getByText("script only", { exact: true })).toBeVisible();
  const signals = page.getByTestId("page-signals");
  await expect(signals.locator('[data-signal="noindex"]')).toHaveText("noindex (meta robots)");
  await expect(signals.locator('[data-signal="robots"]')).toHaveText("allowed");
  await expect(signals.locator('[data-signal="canonical"]')).toHaveText("none");
  await expect(signals.locator('[data-signal="redirect"]')).toHaveText("none");
  await lookAt(page, shot, "monitor");

  // The links page: every verdict, then only the ones that do not count.
  await page.goto("/app/links");
  await expect(page.getByTestId(`tracked-${TARGET}`)).toHaveCount(5);
  await expect(page.locator('[data-verdict="counts"]')).toHaveCount(1);
  await expect(page.locator('[data-verdict="at_risk"]')).toHaveCount(1);
  await expect(page.locator('[data-verdict="does_not_count"]')).toHaveCount(3);
  await expect(page.getByText("Link hidden by CSS", { exact: true })).toBeVisible();
  await expect(page.getByText("Page blocked by robots.txt", { exact: true })).toBeVisible();
  await lookAt(page, shot, "links");
  await page.getByRole("combobox", { name: /^Verdict/ }).selectOption("does_not_count");
  await expect(page.getByTestId(`tracked-${TARGET}`)).toHaveCount(3);
  await expect(page.locator('[data-verdict="counts"], [data-verdict="at_risk"]')).toHaveCount(0);
  await shot("verdict-links-filtered-1280");

  // A saved audit of an article: hidden, script only and region badges on its links, and their filters.
  const audit = await post(api, "/api/account/audits", { url: `${FIXTURE_ORIGIN}/verdict/showcase` });
  await page.goto(`/app/audits/${audit.id}`);
  const table = page.locator("table");
  const rowOf = (anchor: string) => table.locator("tr", { hasText: anchor });
  await expect(rowOf("a hidden offer").locator('[data-signal="hidden"]')).toBeVisible();
  await expect(rowOf("added by script").locator('[data-signal="script-only"]')).toBeVisible();
  await expect(rowOf("Our partner").locator('[data-signal="region"]')).toHaveText("region footer");
  await expect(rowOf("the product in the text").locator('[data-signal="region"]')).toHaveText("region main");
  await lookAt(page, shot, "audit");
  await page.getByLabel("Visibility").selectOption("hidden");
  await expect(page.getByTestId("table-count")).toContainText("Showing 1–1 of 1 matching");
  await expect(rowOf("a hidden offer")).toBeVisible();
  await page.getByLabel("Visibility").selectOption("all");
  await page.getByLabel("In the served HTML").selectOption("script_only");
  await expect(page.getByTestId("table-count")).toContainText("of 1 matching");
  await page.getByLabel("In the served HTML").selectOption("all");
  await page.getByLabel("Region").selectOption("nav");
  await expect(page.getByTestId("table-count")).toContainText("of 2 matching");
  await shot("verdict-audit-filtered-1280");
});
