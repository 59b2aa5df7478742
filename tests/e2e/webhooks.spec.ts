import { setFixturePage } from "./monitoring";
import { FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * Webhooks in the app, against the production build and the fixture site as the receiver: an owner adds
 * a Slack endpoint, sees the signing secret once and copies it with the button, sends a test that is
 * delivered, adds an endpoint whose receiver is missing and sees its test fail with the receiver's
 * status, disables it, and finds the secret nowhere after a reload.
 */

test("add a webhook, copy its secret once, test it, see a failing one, disable it", async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const run = Date.now();
  await setFixturePage(`/e2e-webhook-${run}`, "ok");

  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Wes");
  await page.getByLabel("Email").fill(`wes-${run}@example.com`);
  await page.getByLabel(/^Password/).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Wes's team" })).toBeVisible();

  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No webhooks yet.")).toBeVisible();

  await page.getByLabel("Endpoint URL").fill(`${FIXTURE_ORIGIN}/e2e-webhook-${run}`);
  await page.getByLabel("Format").selectOption("slack");
  await page.getByLabel("Note (optional)").fill("#seo-alerts");
  await page.getByRole("button", { name: "Add webhook" }).click();

  const secretBox = page.getByTestId("webhook-secret");
  await expect(secretBox).toContainText("shown only once");
  const secret = await page.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await secretBox.getByRole("button", { name: "Copy secret" }).click();
  await expect(secretBox.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secretBox.getByRole("button", { name: "Done" }).click();
  await expect(secretBox).toHaveCount(0);

  const card = page.getByTestId("webhook-#seo-alerts");
  await expect(card).toContainText("Slack");
  await card.getByRole("button", { name: "Send a test to #seo-alerts" }).click();
  await expect(page.getByText("Test delivered to #seo-alerts (HTTP 200).")).toBeVisible();
  await expect(card.getByTestId("delivery-row").first()).toContainText("ping");
  await expect(card.getByTestId("delivery-row").first()).toContainText(/delivered/i);

  // A receiver that is not there: the test fails and says how the receiver answered.
  await page.getByLabel("Endpoint URL").fill(`${FIXTURE_ORIGIN}/e2e-webhook-${run}/missing`);
  await page.getByLabel("Note (optional)").fill("CRM");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByTestId("webhook-secret").getByRole("button", { name: "Done" }).click();
  const crm = page.getByTestId("webhook-CRM");
  await crm.getByRole("button", { name: "Send a test to CRM" }).click();
  await expect(page.getByText(/^The test failed: HTTP 404/)).toBeVisible();
  await expect(crm.getByTestId("delivery-row").first()).toContainText(/failed/i);
  await crm.getByRole("button", { name: "Disable CRM" }).click();
  await expect(crm.getByText("Disabled", { exact: true })).toBeVisible();

  // Shown once: after a reload the secret is nowhere on the page, nor the Slack URL's path (a credential).
  await page.reload();
  await expect(page.getByRole("heading", { name: "Webhooks (2)" })).toBeVisible();
  expect(await page.content()).not.toContain(secret.slice(6));
  await expect(card).toContainText(`${FIXTURE_ORIGIN}/…`);
  await expect(card).toContainText("The rest of this URL is hidden");
  await expect(card).not.toContainText(`e2e-webhook-${run}`);
  await expect(crm).toContainText(`${FIXTURE_ORIGIN}/e2e-webhook-${run}/missing`);
});
