import { expect, type Page } from "@playwright/test";
import { FIXTURE_ORIGIN } from "./ports";

/** Helpers of the monitoring and alert flows. */

/** Sets a page of the e2e fixture site (its PUT /__pages), so a test can change what a monitor sees. */
export async function setFixturePage(path: string, body: string): Promise<void> {
  const response = await fetch(`${FIXTURE_ORIGIN}/__pages`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, body }),
  });
  expect(response.status).toBe(204);
}

/** "Check now" as a person would: a scheduled check running at that moment answers 409, then retry. */
export async function checkNow(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.getByRole("button", { name: "Check now" }).click();
    const outcome = page.getByText(/^Checked\.$|being checked right now/);
    await expect(outcome).toBeVisible({ timeout: 45_000 });
    if ((await outcome.textContent())?.startsWith("Checked")) return;
    await page.waitForTimeout(2000);
  }
  throw new Error("the page stayed busy");
}
