import { expect, test } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { APP_ORIGIN, SMTP_PORT } from "./ports";

/**
 * Accounts end to end: sign up, invite a colleague (the invitation is read from a real SMTP server the
 * app delivers to), accept as a new user, see the shared team, and check that a viewer gets no edit
 * controls and a 403 from the API.
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
  const refused = await viewer.request.post("/api/account/invitations", { data: { email: "x@example.com", role: "viewer" }, headers: { origin: APP_ORIGIN } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, errorCode: "FORBIDDEN" });

  // The owner sees the new member too.
  await owner.reload();
  await expect(owner.getByTestId(`member-${viewerEmail}`)).toBeVisible();
  await ownerContext.close();
  await viewerContext.close();
});
