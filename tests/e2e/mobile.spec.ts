import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, "page is wider than the phone").toBeLessThanOrEqual(clientWidth);
}

test("a 390×844 phone: no horizontal scrolling, before and after results", async ({ page, shot }) => {
  await page.goto("/");
  await expectNoHorizontalScroll(page);
  await shot("12-mobile-home");

  await page.getByRole("radio", { name: /Paste HTML/ }).check();
  await page.getByRole("button", { name: "Load an example" }).click();
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByTestId("results")).toBeVisible();
  await page.getByLabel("Domain or URL to look for").fill("https://shop.example.net/trail-x?ref=review");
  await expect(page.getByTestId("find-verdict")).toContainText("Found 1 link");
  await expectNoHorizontalScroll(page);
  await shot("13-mobile-results");

  await page.getByRole("radio", { name: /^URL/ }).check();
  await page.getByLabel("Page URL").fill("http://10.0.0.1/some/really/long/path/that/should/wrap/nicely/on/a/phone/screen");
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByRole("alert")).toContainText("INVALID_URL");
  await expectNoHorizontalScroll(page);
  await shot("14-mobile-error");
});
