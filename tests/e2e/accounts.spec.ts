import { expect, test } from "@playwright/test";
import { saveScreenshot } from "./test";
import type { ParsedMail } from "mailparser";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { checkNow, setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN, SMTP_PORT } from "./ports";

/**
 * Accounts end to end: sign up, invite a colleague (the invitation is read from a real SMTP server the
 * app delivers to), accept as a new user, see the shared team, and check that a viewer gets no edit
 * controls and a 403 from the API. Alerts live here too: they need the same SMTP server.
 */

let smtp: TestSmtpServer;
test.beforeAll(async () => {
  smtp = await startSmtpServer(SMTP_PORT);
});
test.afterAll(async () => {
  await smtp?.stop();
});

function firstLink(mail: ParsedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text ?? "");
  if (!match) throw new Error(`no link in ${mail.text}`);
  return match[0];
}

test("sign up, invite a viewer by email, accept, and the viewer cannot edit", async ({ browser }) => {
  test.setTimeout(120_000);
  const run = Date.now();
  const ownerEmail = `owner-${run}@example.com`;
  const viewerEmail = `viewer-${run}@example.com`;

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto("/");
  await owner.getByRole("link", { name: "Sign up" }).click();
  await owner.getByLabel("Name").fill("Olivia");
  await owner.getByLabel("Email").fill(ownerEmail);
  await owner.getByLabel(/^Password/).fill("correct horse battery");
  await owner.getByRole("button", { name: "Create account" }).click();
  await expect(owner.getByRole("heading", { name: "Olivia's team" })).toBeVisible();

  await owner.getByRole("link", { name: "Team" }).first().click();
  await owner.getByLabel("Email address").fill(viewerEmail);
  await owner.getByRole("combobox", { name: "Role" }).selectOption("viewer");
  await owner.getByRole("button", { name: "Send invitation" }).click();
  await expect(owner.getByText(`Invitation sent to ${viewerEmail}.`)).toBeVisible();

  const isInvitation = (m: ParsedMail) => m.subject?.includes("invited you") === true;
  await expect.poll(() => smtp.received.some(isInvitation), { timeout: 30_000 }).toBe(true);
  const invitation = smtp.received.find(isInvitation) as ParsedMail;
  const link = firstLink(invitation);
  expect(link.startsWith(`${APP_ORIGIN}/app/invitations/`)).toBe(true);

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  await expect(viewer).toHaveURL(/\/sign-in\?next=/);
  await viewer.getByRole("link", { name: "Create an account" }).click();
  await viewer.getByLabel("Name").fill("Victor");
  await viewer.getByLabel("Email").fill(viewerEmail);
  await viewer.getByLabel(/^Password/).fill("another good password");
  await viewer.getByRole("button", { name: "Create account" }).click();
  await viewer.getByRole("button", { name: "Accept invitation" }).click();
  await expect(viewer).toHaveURL(/\/app\/team$/);
  await expect(viewer.getByRole("heading", { name: "Team · Olivia's team" })).toBeVisible();
  await expect(viewer.getByTestId(`member-${ownerEmail}`)).toBeVisible();
  await expect(viewer.getByTestId(`member-${viewerEmail}`)).toContainText("viewer");

  // A viewer sees no edit controls…
  await expect(viewer.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await expect(viewer.getByRole("combobox", { name: /Role of/ })).toHaveCount(0);
  // …and the API refuses the change anyway.
  const refused = await viewer.request.post("/api/account/invitations", {
    data: { email: "x@example.com", role: "viewer" },
    headers: { origin: APP_ORIGIN },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, errorCode: "FORBIDDEN" });

  // The owner sees the new member too.
  await owner.reload();
  await expect(owner.getByTestId(`member-${viewerEmail}`)).toBeVisible();
  await ownerContext.close();
  await viewerContext.close();
});

test("alerts: choose notifications in Settings, lose a tracked link, read the alert in the app and open the email's monitor link", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const email = `alice-${run}@example.com`;
  const placement = `/e2e-alert-${run}`;
  const target = `${FIXTURE_ORIGIN}/p/alert-product-${run}`;
  await setFixturePage(`/p/alert-product-${run}`, "<!doctype html><title>Product</title><p>Product</p>");
  const withLink = `<!doctype html><title>Review</title><p>We recommend <a href="${target}">Alert Product</a>.</p>`;
  await setFixturePage(placement, withLink);

  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Alice");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Alice's team" })).toBeVisible();

  // Settings → Notifications: immediate emails, but not about anchor text.
  await page.getByRole("link", { name: "Settings" }).first().click();
  const notifications = page.getByRole("region", { name: "Notifications" });
  await expect(notifications.getByLabel("Immediately (one email per check that changed something)")).toBeChecked();
  await notifications.getByLabel("A link's anchor text changes").uncheck();
  await notifications.getByRole("button", { name: "Save notification settings" }).click();
  await expect(notifications.getByText("Notification settings saved.")).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole("region", { name: "Notifications" }).getByLabel("A link's anchor text changes"),
  ).not.toBeChecked();

  // A monitored placement that disappears: live, one miss, confirmed missing.
  await page.getByRole("link", { name: "Monitors" }).first().click();
  await page.getByLabel("Page URL").fill(`${FIXTURE_ORIGIN}${placement}`);
  await page.getByLabel(/^Links to track/).fill(target);
  await page.getByRole("button", { name: "Add monitor" }).click();
  await page.getByRole("link", { name: `${FIXTURE_ORIGIN}${placement}` }).click();
  await page.waitForURL(/\/app\/monitors\/[\w-]+$/);
  const monitorUrl = page.url();
  const row = page.getByTestId(`link-${target}`);
  await checkNow(page);
  await expect(row.getByText("Live", { exact: true })).toBeVisible();
  await setFixturePage(placement, "<!doctype html><title>Review</title><p>We recommend other things.</p>");
  await checkNow(page);
  await checkNow(page);
  await expect(row.getByText("Missing", { exact: true })).toBeVisible();

  const headline = `Link removed: 127.0.0.1/p/alert-product-${run} on 127.0.0.1/e2e-alert-${run}`;
  await page.getByRole("link", { name: "Alerts" }).first().click();
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await expect(page.getByText(headline)).toBeVisible();
  await saveScreenshot(page, "alerts");

  // The email: exactly one, with a link that opens the monitor.
  const isAlert = (mail: ParsedMail) => mail.subject === headline;
  await expect.poll(() => smtp.received.filter(isAlert).length, { timeout: 30_000 }).toBe(1);
  const alert = smtp.received.find(isAlert) as ParsedMail;
  expect(alert.html).toBeTruthy();
  const openLink = /Open the monitor: (\S+)/.exec(alert.text ?? "")?.[1] ?? "";
  expect(openLink).toBe(monitorUrl);
  await page.goto(openLink);
  await expect(page.getByTestId(`link-${target}`).getByText("Missing", { exact: true })).toBeVisible();

  // "Mute this monitor" works without a session and without JavaScript: opening the link only asks (mail
  // scanners open links), the page's button mutes, and Undo undoes.
  const muteLink = /Mute this monitor: (\S+)/.exec(alert.text ?? "")?.[1] ?? "";
  const stranger = await page.context().browser()?.newContext({ javaScriptEnabled: false });
  const anonymous = await stranger?.newPage();
  if (!anonymous) throw new Error("no browser context");
  await anonymous.goto(muteLink);
  await expect(anonymous.getByRole("heading", { name: "Mute this monitor?" })).toBeVisible();
  await anonymous.getByRole("button", { name: "Mute this monitor" }).click();
  await expect(anonymous.getByRole("heading", { name: "Monitor muted" })).toBeVisible();
  await anonymous.getByRole("button", { name: "Undo" }).click();
  await expect(anonymous.getByText("Alert emails about this page are on again.")).toBeVisible();
  await stranger?.close();
});
