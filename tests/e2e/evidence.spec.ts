import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "@playwright/test";
import { signUp } from "./app-data";
import { confirmOwnAddress } from "./confirm-address";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { checkNow, setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, SCREENSHOT_DIR, test } from "./test";

/**
 * Evidence in the app (production build, a fixture page carrying the tracked link): Check now finds the
 * link live, so its evidence list holds a "first seen live" record with a loaded 1280 px screenshot;
 * Capture evidence adds a manual one at the top; its PDF report, page HTML and screenshot download with
 * the right types. Looked at on a laptop (1280) and a phone (390), light and dark: screenshots, no
 * sideways scrolling, axe-clean. A viewer reads the evidence but is offered no capture.
 */

const WIDTHS = [1280, 390] as const;
type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

/** The thumbnail's image has arrived whole: a lazy image loads once it is scrolled near. */
async function expectThumbnailLoaded(record: Locator): Promise<void> {
  const image = record.locator("img");
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
  await expect(image).toHaveAttribute("loading", "lazy");
  await expect(image).toHaveAttribute(
    "alt",
    /^Screenshot of the page on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, close up on the link, outlined in red$/,
  );
}

async function lookAt(page: Page, shot: Shot, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalScroll(page, `${name} at ${width}px`);
    await shot(`evidence-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAxeClean(page, `${name}, ${colorScheme}`);
  }
  await shot(`evidence-${name}-1280-dark`);
  await page.emulateMedia({ colorScheme: "light" });
}

/** A second browser signed in as a viewer of the owner's team (invited, confirmed, accepted through the API). */
async function viewerOf(owner: Page, browser: Browser, run: number): Promise<Page> {
  const email = `vic-${run}@example.com`;
  const invitation = await owner.request.post("/api/account/invitations", {
    data: { email, role: "viewer" },
    headers: { origin: APP_ORIGIN },
  });
  expect(invitation.status(), await invitation.text()).toBe(201);
  const { id } = (await invitation.json()) as { id: string };
  const context = await browser.newContext();
  const send = async (path: string, data: unknown) => {
    const response = await context.request.post(path, { data, headers: { origin: APP_ORIGIN } });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  };
  await send("/api/auth/sign-up/email", { name: "Vic", email, password: "correct horse battery" });
  await confirmOwnAddress(context.request);
  await send("/api/auth/organization/accept-invitation", { invitationId: id });
  return context.newPage();
}

test("a check's first-live evidence, a capture on request, their files, and a viewer's read-only view", async ({
  page,
  shot,
  browser,
}) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const placement = `/e2e-evidence-${run}/a-guest-post-about-trail-running-shoes`;
  const target = `${FIXTURE_ORIGIN}/p/evidence-product-${run}`;
  await setFixturePage(
    placement,
    `<!doctype html><title>Review</title><h1>Trail shoes</h1><p>We recommend <a href="${target}">Evidence Product</a> for long runs.</p>`,
  );
  await signUp(page, "Eve", `eve-${run}@example.com`);
  const created = await page.request.post("/api/account/monitors", {
    data: { url: `${FIXTURE_ORIGIN}${placement}`, links: [{ target }] },
    headers: { origin: APP_ORIGIN },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: monitorId } = (await created.json()) as { id: string };

  // Check now finds the link live: the check keeps a "first seen live" record.
  await page.goto(`/app/monitors/${monitorId}`);
  const row = page.getByTestId(`link-${target}`);
  await checkNow(page);
  await expect(row.getByText("Live", { exact: true })).toBeVisible();
  const toggle = row.getByRole("button", { name: `Evidence of ${target}` });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const list = page.getByRole("region", { name: `Evidence of ${target}` });
  const records = list.getByTestId("evidence-record");
  await expect(records).toHaveCount(1);
  const firstLive = records.first();
  await expect(firstLive).toHaveAttribute("data-reason", "first_live");
  await expect(firstLive).toContainText("First seen live");
  await expect(firstLive).toContainText("HTTP 200");
  await expect(firstLive).toContainText("“Evidence Product” · follow");
  await expect(firstLive.locator('[data-verdict="counts"]')).toBeVisible();
  await expect(firstLive.locator("code")).toHaveText(/^[0-9a-f]{64}$/);
  await expectThumbnailLoaded(firstLive);
  await lookAt(page, shot, "first-live");

  // Capture evidence: a manual record, shown at once and at the top of the open list.
  await page.getByRole("button", { name: "Capture evidence" }).click();
  await expect(page.getByText("Captured evidence of 1 tracked link.")).toBeVisible({ timeout: 45_000 });
  const captured = page.getByTestId("captured-evidence").getByTestId("evidence-record");
  await expect(captured).toHaveCount(1);
  await expect(captured).toHaveAttribute("data-reason", "manual");
  await expect(captured).toContainText(`Tracked link: ${target}`);
  await expect(records).toHaveCount(2);
  await expect(records.first()).toHaveAttribute("data-reason", "manual");
  await expect(records.first()).toContainText("Captured on request");
  await expect(records.nth(1)).toHaveAttribute("data-reason", "first_live");
  await expectThumbnailLoaded(records.first());
  await lookAt(page, shot, "captured");

  // The files answer with their types: the PDF for a vendor, the HTML as plain text, the PNG.
  const manual = records.first();
  const download = async (name: string) => {
    // "Screenshot of 2026-… UTC": the thumbnail's link ("Screenshot of the page on …") goes to the same PNG.
    const href = await manual.getByRole("link", { name: new RegExp(`^${name} of \\d{4}-`) }).getAttribute("href");
    expect(href, `${name} link`).toMatch(/^\/api\/account\/evidence\/[^/]+\//);
    const response = await page.request.get(href ?? "");
    expect(response.status(), `${name}: ${href}`).toBe(200);
    return response;
  };
  const pdf = await download("PDF report");
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const html = await download("Page HTML");
  expect(html.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(html.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(await html.text()).toContain(`<a href="${target}">Evidence Product</a>`);
  const png = await download("Screenshot");
  expect(png.headers()["content-type"]).toBe("image/png");
  // The record's own PNG beside the app's screenshots: a person checks the outline around the link.
  writeFileSync(path.join(SCREENSHOT_DIR, "evidence-record-png.png"), await png.body());

  // A viewer opens the same evidence, and is offered Check now and Capture evidence nowhere.
  const viewer = await viewerOf(page, browser, run);
  await viewer.goto(`/app/monitors/${monitorId}`);
  const viewerRow = viewer.getByTestId(`link-${target}`);
  await viewerRow.getByRole("button", { name: `Evidence of ${target}` }).click();
  await expect(
    viewer.getByRole("region", { name: `Evidence of ${target}` }).getByTestId("evidence-record"),
  ).toHaveCount(2);
  await expect(viewer.getByRole("button", { name: "Capture evidence" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Check now" })).toHaveCount(0);
  const refused = await viewer.request.post(`/api/account/monitors/${monitorId}/evidence`, {
    headers: { origin: APP_ORIGIN },
  });
  expect(refused.status(), await refused.text()).toBe(403);
  await viewer.context().close();
});
