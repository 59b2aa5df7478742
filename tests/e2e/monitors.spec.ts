import { expect, test } from "@playwright/test";
import { saveScreenshot } from "./test";
import { checkNow, setFixturePage } from "./monitoring";
import { FIXTURE_ORIGIN } from "./ports";

/**
 * Placement monitoring end to end, against the production build and the fixture site (whose pages the
 * test changes through its PUT /__pages): add a monitored page with a tracked link, check it now, see it
 * live; remove the link from the page, check twice (the first miss only awaits confirmation), see it
 * missing, and read the change in the timeline.
 */

test("add a monitor, check it, lose the link, confirm it missing, read the timeline", async ({ page }) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const placement = `/e2e-placement-${run}`;
  const target = `${FIXTURE_ORIGIN}/p/my-product`;
  const withLink = `<!doctype html><title>Review</title><p>We recommend <a href="${target}">My Product</a>.</p>`;
  await setFixturePage(placement, withLink);

  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Mona");
  await page.getByLabel("Email").fill(`mona-${run}@example.com`);
  await page.getByLabel(/^Password/).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Mona's team" })).toBeVisible();

  await page.getByRole("link", { name: "Monitors" }).first().click();
  await expect(page.getByRole("heading", { name: "Monitored pages", level: 1 })).toBeVisible();
  await page.getByLabel("Page URL").fill(`${FIXTURE_ORIGIN}${placement}`);
  await page.getByLabel(/^Links to track/).fill(target);
  await page.getByRole("button", { name: "Add monitor" }).click();
  await expect(page.getByText(/^Monitoring /)).toBeVisible();
  await page.getByRole("link", { name: `${FIXTURE_ORIGIN}${placement}` }).click();

  const row = page.getByTestId(`link-${target}`);
  await expect(row).toBeVisible();
  await checkNow(page);
  await expect(row.getByText("Live", { exact: true })).toBeVisible();
  await expect(row).toContainText("“My Product” · follow · HTTP 200");

  await setFixturePage(placement, `<!doctype html><title>Review</title><p>We recommend other things.</p>`);
  await checkNow(page);
  // One miss is not a loss: the state waits for the confirming check.
  await expect(row.getByText("Live", { exact: true })).toBeVisible();
  await checkNow(page);
  await expect(row.getByText("Missing", { exact: true })).toBeVisible();

  const timeline = page.getByTestId("timeline");
  await expect(timeline).toContainText(`${target}: live → missing`);
  await expect(timeline).toContainText(`${target}: pending → live`);
  await expect(timeline).toContainText("Checked: page loaded (HTTP 200)");
  await saveScreenshot(page, "monitor-detail");

  // The link builder's view lists it as missing too, and the overview counts it.
  await page.getByRole("link", { name: "Links" }).first().click();
  await page.getByLabel("State").selectOption("missing");
  await expect(page.getByTestId(`tracked-${target}`)).toContainText("Missing");
  await page.getByRole("link", { name: "Overview" }).first().click();
  await expect(page.getByTestId("monitoring-counts")).toContainText("Missing1");
});
