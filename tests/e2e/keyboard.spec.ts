import type { Page } from "@playwright/test";
import { expect, snapshotFrame, test } from "./test";

/** Presses Tab until the focused element matches, failing after `max` presses. */
async function tabTo(page: Page, selector: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

test("keyboard only: switch mode, fill, Enter submits, select a table row, sort", async ({ page, shot }) => {
  await page.goto("/");
  await tabTo(page, 'input[name="mode"]');
  await expect(page.getByRole("radio", { name: /^URL/ })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: /Paste HTML/ })).toBeChecked();

  await tabTo(page, 'textarea[name="html"]');
  await page.keyboard.insertText(
    '<a href="/a">First</a> <a href="https://other.example/" rel="nofollow">Second</a> <a href="/c">Third</a>',
  );
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(/^Domain/)).toBeFocused();
  await page.keyboard.type("site.example");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("results")).toBeVisible();

  // Reach the first row's button by Tab alone, choose it with Enter, the next with Space.
  await tabTo(page, 'button[aria-label="Show link 1 in the snapshot"]', 80);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Show link 1 in the snapshot" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(snapshotFrame(page).locator('[data-linklens-position="1"]')).toHaveAttribute(
    "data-linklens-selected",
    "",
  );
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab"); // past the row's href link
  await tabTo(page, 'button[aria-label="Show link 2 in the snapshot"]');
  await page.keyboard.press(" ");
  await expect(page.getByRole("button", { name: "Show link 2 in the snapshot" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByRole("button", { name: "Show link 1 in the snapshot" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await shot("11-keyboard-row-selected");

  // Focus is visible on what the keyboard reached.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe("none");

  // Sort with the keyboard: shift-tab back to a column header.
  await page.getByRole("button", { name: /^Rel/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator('th[aria-sort="ascending"]')).toContainText("Rel");
});
