import type { Page } from "@playwright/test";
import { WEBHOOK_KIND_INFO, WEBHOOK_KINDS } from "../../lib/schemas/webhook-kinds";
import { signUp } from "./app-data";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { setFixturePage } from "./monitoring";
import { FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * Webhooks in the app, against the production build and the fixture site as the receiver: an owner adds
 * a Slack endpoint, sees the signing secret once and copies it with the button, sends a test that is
 * delivered, adds an endpoint whose receiver is missing and sees its test fail with the receiver's
 * status, disables it, and finds the secret nowhere after a reload. The Format list offers every chat
 * of the channel registry with its URL form; a Discord URL of another host is refused with the form it
 * expects; a Telegram endpoint whose receiver is not Telegram fails its test with what it answered;
 * looked at on a laptop (1280) and a phone (390), light and dark, axe-clean.
 */

type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

async function lookAt(page: Page, shot: Shot, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalScroll(page, `${name} at ${width}px`);
    await shot(`webhooks-${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAxeClean(page, `${name}, ${colorScheme}`);
  }
  await shot(`webhooks-${name}-1280-dark`, { fullPage: true });
  await page.setViewportSize({ width: 390, height: 900 });
  await shot(`webhooks-${name}-390-dark`, { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

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

test("every chat in the Format list with its URL form; a chat URL of another host refused; a Telegram test that Telegram did not take", async ({
  page,
  shot,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const run = Date.now();
  await signUp(page, "Chad", `chad-${run}@example.com`);
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  // The chats, as the registry lists them, in the page's words.
  await expect(
    page.getByText(/go to your team's chat \(Slack, Discord, Microsoft Teams, Google Chat, Telegram\)/),
  ).toBeVisible();
  await expect(
    page.getByText(/Add a Slack, Discord, Microsoft Teams, Google Chat or Telegram webhook URL/),
  ).toBeVisible();

  const format = page.getByLabel("Format");
  const url = page.getByLabel("Endpoint URL");
  expect(await format.locator("option").allTextContents()).toEqual(
    WEBHOOK_KINDS.map((kind) => WEBHOOK_KIND_INFO[kind].choice),
  );
  for (const kind of WEBHOOK_KINDS) {
    await format.selectOption(kind);
    await expect(url).toHaveAttribute("placeholder", WEBHOOK_KIND_INFO[kind].urlHint);
  }
  await format.selectOption("telegram");
  await lookAt(page, shot, "new-telegram");

  // Discord takes Discord's URLs only: the form says which.
  await format.selectOption("discord");
  await url.fill("https://hooks.example.com/api/webhooks/1/token");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(
    page.getByText(
      "This is not a Discord webhook URL. A Discord webhook URL looks like https://discord.com/api/webhooks/…",
    ),
  ).toBeVisible();
  // Chromium logs that 400 as a failed resource: it is this step's expected answer, not a bug.
  const refused = consoleErrors.findIndex(
    (line) => line.includes("400 (Bad Request)") && line.includes("/api/account/webhooks"),
  );
  expect(refused).toBeGreaterThanOrEqual(0);
  consoleErrors.splice(refused, 1);
  await shot("webhooks-discord-refused-1280");

  // The fixture site (allow-listed, as a local receiver) answers 200 "ok": Discord's rule takes it, Telegram's does not.
  const discordPath = `/e2e-${run}/api/webhooks/1234567890/tokenSECRET`;
  const telegramPath = `/bot${run}:SECRET/sendMessage`;
  await setFixturePage(discordPath, "ok");
  await setFixturePage(telegramPath, "ok");
  await url.fill(`${FIXTURE_ORIGIN}${discordPath}`);
  await page.getByLabel("Note (optional)").fill("#seo-discord");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByTestId("webhook-secret").getByRole("button", { name: "Done" }).click();
  await format.selectOption("telegram");
  await url.fill(`${FIXTURE_ORIGIN}${telegramPath}?chat_id=42`);
  await page.getByLabel("Note (optional)").fill("SEO group");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByTestId("webhook-secret").getByRole("button", { name: "Done" }).click();

  const discordCard = page.getByTestId("webhook-#seo-discord");
  await expect(discordCard).toContainText("Discord");
  await discordCard.getByRole("button", { name: "Send a test to #seo-discord" }).click();
  await expect(page.getByText("Test delivered to #seo-discord (HTTP 200).")).toBeVisible();
  const telegramCard = page.getByTestId("webhook-SEO group");
  await expect(telegramCard).toContainText("Telegram");
  await telegramCard.getByRole("button", { name: "Send a test to SEO group" }).click();
  await expect(
    page.getByText("The test failed: HTTP 200, but the answer does not say the message was taken (see the answer)."),
  ).toBeVisible();
  await expect(telegramCard.getByTestId("delivery-row").first()).toContainText(/failed/i);

  // After a reload, each chat URL is masked: Telegram's shows "bot…", never the token or the chat id.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Webhooks (2)" })).toBeVisible();
  await expect(telegramCard).toContainText(`${FIXTURE_ORIGIN}/bot…`);
  await expect(discordCard).toContainText(`${FIXTURE_ORIGIN}/…`);
  expect(await page.content()).not.toContain("SECRET");
  await lookAt(page, shot, "chats");
});
