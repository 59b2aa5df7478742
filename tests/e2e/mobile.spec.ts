import { expectNoHorizontalScroll } from "./layout";
import { chooseMode, expect, test } from "./test";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

test("a 390×844 phone: no horizontal scrolling, before and after results", async ({ page, shot }) => {
  await page.goto("/");
  await expectNoHorizontalScroll(page);
  await shot("12-mobile-home");

  await chooseMode(page, "Paste HTML");
  await page.getByRole("button", { name: "Load an example" }).click();
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByTestId("results")).toBeVisible();
  await page.getByLabel("Domain or URL to look for").fill("https://shop.example.net/trail-x?ref=review");
  await expect(page.getByTestId("find-verdict")).toContainText("Found 1 link");
  await expectNoHorizontalScroll(page);
  await shot("13-mobile-results");
  await page.getByRole("region", { name: "Find my link" }).scrollIntoViewIfNeeded();
  await shot("13b-mobile-find-my-link", { fullPage: false });
  await page.getByRole("region", { name: /^Links \(/ }).evaluate((element) => element.scrollIntoView());
  await shot("13c-mobile-links-table", { fullPage: false });
  // On a phone the URL, type, rel and status stack under the anchor text: visible without sideways scrolling.
  const sponsoredRow = page
    .getByRole("region", { name: /^Links \(/ })
    .locator("tbody tr")
    .filter({ hasText: "Trail X at ShopNet" });
  for (const text of ["shop.example.net/trail-x?ref=review", "external", "nofollow", "sponsored"]) {
    await expect(sponsoredRow.getByText(text, { exact: true }).filter({ visible: true })).toBeInViewport();
  }

  await chooseMode(page, "URL");
  await page
    .getByLabel("Page URL")
    .fill("http://10.0.0.1/some/really/long/path/that/should/wrap/nicely/on/a/phone/screen");
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByTestId("error-panel")).toContainText("INVALID_URL");
  await expectNoHorizontalScroll(page);
  await shot("14-mobile-error");
});
