import { expect, tableRows, test } from "./test";
import { FIXTURE_ORIGIN } from "./ports";

test("URL mode renders the page: script-added links appear, statuses are checked", async ({ page, shot }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await page.getByLabel("Page URL").fill(`${FIXTURE_ORIGIN}/shop`);
  await page.getByLabel("Page URL").press("Enter");

  // While waiting, the button says what is happening and for how long.
  const button = page.getByRole("button", { name: /Rendering the page and checking links… \d+s/ });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute("aria-disabled", "true");
  await shot("06-url-progress");

  await expect(page.getByTestId("results")).toBeVisible({ timeout: 60_000 });
  const rows = tableRows(page);
  const row = (text: string) => rows.filter({ hasText: text });

  await expect(row("Added by script")).toHaveCount(1);
  await expect(row("Added by script")).toContainText(`${FIXTURE_ORIGIN}/shop/added-by-script`);
  await expect(row("Added by script")).toContainText("200");
  await expect(row("About us")).toContainText("200");
  await expect(row("Our partner")).toContainText("sponsored");
  await expect(row("old buying guide")).toContainText("404");
  await expect(row("the forum")).toContainText("no response");
  await expect(row("the forum")).toContainText("external");
  await expect(row("Email us")).toContainText("ignored");

  await expect(page.locator('[data-stat="total"] dd')).toHaveText("6");
  await expect(page.locator('[data-stat="broken"] dd')).toHaveText("2");
  await expect(page.getByRole("figure", { name: /^HTTP status/ })).toContainText("2xx3");
  await expect(page.getByRole("figure", { name: /^HTTP status/ })).toContainText("4xx1");

  await page.getByLabel("Status", { exact: true }).selectOption("broken");
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Status", { exact: true }).selectOption("all");

  await page.getByLabel("Domain or URL to look for").fill(`${FIXTURE_ORIGIN}/shop/added-by-script`);
  await expect(page.getByTestId("find-verdict")).toContainText(
    "Found 1 link to 127.0.0.1/shop/added-by-script — 1 followed",
  );
  await shot("07-url-results");
});
