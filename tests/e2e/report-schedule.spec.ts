import type { Page } from "@playwright/test";
import { signUp } from "./app-data";
import { confirmOwnAddress } from "./confirm-address";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * A report emailed on a schedule, in the app against the production build: an owner opens a report link's
 * Email… panel on the Reports page, sets "every Monday at 09:00 UTC" for their own address and a client's,
 * and sees both asked to confirm; follows their own confirmation email's link (a page that changes nothing
 * until its button is pressed) and confirms; back on the Reports page their address is Confirmed and the
 * client's still asked; sends a test to themselves (a "[Test]" report waits in the outbox); stops emailing.
 * The panel and the confirmation page are looked at on a laptop (1280) and a phone (390), light and dark,
 * axe-clean, with no sideways scrolling.
 */

type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

async function lookAt(page: Page, shot: Shot, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalScroll(page, `${name} at ${width}px, ${colorScheme}`);
      await expectAxeClean(page, `${name} at ${width}px, ${colorScheme}`);
      await shot(`report-schedule-${name}-${width}-${colorScheme}`, { fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

interface OutboxItem {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
}

async function outboxItems(page: Page): Promise<OutboxItem[]> {
  const answer = await page.request.get("/api/account/outbox");
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { items: OutboxItem[] }).items;
}

test("email a report link on a schedule: recipients confirm first, their status, a test to me, stop", async ({
  page,
  shot,
}) => {
  test.setTimeout(240_000);
  const run = Date.now();
  const owner = `sam-${run}@example.com`;
  const client = `client-${run}@acme.example`;
  const title = "Acme: weekly placements";
  const placement = `/e2e-scheduled-${run}`;
  await setFixturePage(placement, `<!doctype html><title>Review</title><p><a href="${FIXTURE_ORIGIN}/p/x">x</a></p>`);

  await signUp(page, "Sam", owner);
  await confirmOwnAddress(page.request);
  const headers = { origin: APP_ORIGIN };
  const monitor = await page.request.post("/api/account/monitors", {
    data: { url: `${FIXTURE_ORIGIN}${placement}`, tags: ["client acme"], links: [{ target: `${FIXTURE_ORIGIN}/p/x` }] },
    headers,
  });
  expect(monitor.status(), await monitor.text()).toBe(201);
  const share = await page.request.post("/api/account/shares", {
    data: { title, scope: "tag", tag: "client acme" },
    headers,
  });
  expect(share.status(), await share.text()).toBe(201);

  await page.goto("/app/reports");
  const row = page.getByTestId(`share-${title}`);
  await expect(row).toContainText("Not emailed");
  const toggle = row.getByRole("button", { name: `Email… “${title}”` });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const form = page.getByRole("form", { name: `Email schedule of “${title}”` });
  await form.getByRole("combobox", { name: "Every", exact: true }).selectOption("weekly");
  await form.getByRole("combobox", { name: "On", exact: true }).selectOption({ label: "Monday" });
  await form.getByRole("combobox", { name: "At (UTC)", exact: true }).selectOption({ label: "09:00" });
  await form.getByLabel(/^Recipients/).fill(`${owner}\n${client.toUpperCase()}`);
  await form.getByRole("button", { name: "Email this report" }).click();
  await expect(page.getByRole("status")).toContainText("Schedule saved. 2 addresses are asked to confirm");
  await expect(row).toContainText("Weekly, every Monday at 09:00 UTC");
  await expect(row).toContainText("0 of 2 confirmed");
  const recipients = page.getByRole("list", { name: `Recipients of “${title}”` }).getByRole("listitem");
  await expect(recipients).toHaveCount(2);
  await expect(recipients.filter({ hasText: owner })).toContainText("Asked to confirm");
  // Addresses are stored lowercased.
  await expect(recipients.filter({ hasText: client })).toContainText("Asked to confirm");
  await expect(form.getByLabel(/^Recipients/)).toHaveValue(`${client}\n${owner}`);
  await lookAt(page, shot, "pending");

  // Each address got one confirmation email; the owner follows the link of their own.
  const consents = (await outboxItems(page)).filter((item) => item.kind === "report_consent");
  expect(consents.map((item) => item.recipient).sort()).toEqual([client, owner].sort());
  expect(consents[0]?.subject).toMatch(/wants to send you a weekly link report — confirm$/);
  const own = consents.find((item) => item.recipient === owner);
  const link = new URL(/https?:\/\/\S+\/report-emails\/confirm\?token=\S+/.exec(own?.text ?? "")?.[0] ?? "http://x/");
  expect(link.pathname).toBe("/report-emails/confirm");
  // The owner cannot confirm for the client: that email's link is hidden in the team's outbox.
  expect(consents.find((item) => item.recipient === client)?.text).not.toContain("token=");

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm the link reports?" })).toBeVisible();
  await expect(page.getByTestId("report-consent")).toContainText("every Monday at 09:00 UTC");
  await lookAt(page, shot, "confirm-page");
  await page.getByRole("button", { name: "Confirm the reports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports confirmed" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm the reports" })).toHaveCount(0);

  await page.goto("/app/reports");
  await expect(row).toContainText("1 of 2 confirmed");
  await row.getByRole("button", { name: `Email… “${title}”` }).click();
  await expect(recipients.filter({ hasText: owner })).toContainText("Confirmed");
  await expect(recipients.filter({ hasText: client })).toContainText("Asked to confirm");
  await expect(page.getByRole("form", { name: `Email schedule of “${title}”` }).getByLabel(/^Recipients/)).toHaveValue(
    // Added together, so in the order of their addresses.
    `${client}\n${owner}`,
  );

  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByRole("status")).toHaveText(`A test report is on its way to ${owner}.`, { timeout: 60_000 });
  const tests = (await outboxItems(page)).filter((item) => item.kind === "report");
  expect(tests.map((item) => [item.recipient, item.subject])).toEqual([
    [owner, `[Test] ${title} — weekly link report from Sam's team`],
  ]);
  await lookAt(page, shot, "confirmed");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Stop emailing" }).click();
  await expect(page.getByRole("status")).toHaveText(`“${title}” is no longer emailed.`);
  await expect(row).toContainText("Not emailed");
  await page.reload();
  await expect(row).toContainText("Not emailed");
});
