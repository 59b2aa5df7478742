import type { Browser } from "@playwright/test";
import { setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, saveScreenshot, test } from "./test";

/**
 * A client report end to end: an owner monitors a page (checked, so its link is live), creates a report
 * link of its tag on the Reports page (the URL is shown once), a client opens it signed out with
 * JavaScript off and sees the link, its state and its history strip; the owner revokes it and the
 * client's next visit is the 404 page. With JavaScript on, the report's CSP (no script) refuses nothing:
 * the page carries no script, its console stays empty, and it looks right at 1280 and 390 px, light and dark.
 */

/**
 * Opens `url` in a fresh context with JavaScript on, as a reader's browser would, and answers the
 * page, its status and everything its console said (a CSP refusal is a console error).
 */
async function openAsReader(
  browser: Browser,
  url: string,
  options: { width: number; height: number; colorScheme: "light" | "dark" },
) {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height },
    colorScheme: options.colorScheme,
  });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on("console", (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => messages.push(`pageerror: ${error.message}`));
  const answer = await page.goto(url);
  return { context, page, messages, status: answer?.status(), csp: answer?.headers()["content-security-policy"] };
}
test("create a report link, open it signed out without JavaScript, revoke it", async ({ page, browser, shot }) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const placement = `/e2e-report-${run}`;
  const target = `${FIXTURE_ORIGIN}/p/client-product`;
  await setFixturePage(
    placement,
    `<!doctype html><title>Review</title><p>Try <a href="${target}">the client's product</a>.</p>`,
  );
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { name: "Rita", email: `rita-${run}@example.com`, password: "correct horse battery" },
    headers: { origin: APP_ORIGIN },
  });
  expect(signUp.status()).toBe(200);
  const monitor = await page.request.post("/api/account/monitors", {
    data: {
      url: `${FIXTURE_ORIGIN}${placement}`,
      tags: ["client acme"],
      links: [{ target, notes: "Invoice 42, paid" }],
    },
    headers: { origin: APP_ORIGIN },
  });
  expect(monitor.status()).toBe(201);
  const monitorId = ((await monitor.json()) as { id: string }).id;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const checked = await page.request.post(`/api/account/monitors/${monitorId}/check`, {
      headers: { origin: APP_ORIGIN },
    });
    if (checked.status() === 200) break;
    expect(checked.status()).toBe(409);
    await page.waitForTimeout(1000);
  }

  await page.goto("/app/reports");
  await page.getByLabel("Title (the client sees it)").fill("Acme: spring placements");
  await expect(page.getByRole("combobox", { name: /^Shows/ })).toHaveValue("tag");
  await expect(page.getByRole("combobox", { name: /^Tag/ })).toHaveValue("client acme");
  await page.getByRole("button", { name: "Create link" }).click();
  const link = page.getByRole("textbox", { name: "Report link", exact: true });
  await expect(link).toHaveValue(new RegExp(`^${APP_ORIGIN}/r/[A-Za-z0-9_-]{32}$`));
  const reportUrl = await link.inputValue();
  await expect(page.getByTestId("share-Acme: spring placements")).toContainText("Active");
  await shot("reports-1280-created");

  const client = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const visitor = await client.newPage();
  try {
    const opened = await visitor.goto(reportUrl);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["cache-control"]).toBe("private, no-store");
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(visitor.getByRole("heading", { level: 1, name: "Acme: spring placements" })).toBeVisible();
    const row = visitor.getByTestId("report-link");
    await expect(row).toContainText(target);
    await expect(row).toContainText("Live");
    await expect(row.getByTestId("live-percent")).toHaveText("100.0 % live");
    await expect(visitor.getByText("Invoice 42")).toHaveCount(0);
    await saveScreenshot(visitor, "reports-1280-client-view");

    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        const reader = await openAsReader(browser, reportUrl, { width, height, colorScheme });
        try {
          expect(reader.status).toBe(200);
          expect(reader.csp).toContain("script-src 'none'");
          await expect(reader.page.getByRole("heading", { level: 1, name: "Acme: spring placements" })).toBeVisible();
          await expect(reader.page.getByTestId("report-link")).toContainText("Live");
          await expect(reader.page.getByTestId("uptime-strip").first()).toBeVisible();
          // Our stylesheet applied (the policy lets it in): the header's rule and background.
          await expect(reader.page.locator("header")).toHaveCSS("border-bottom-width", "1px");
          await expect(reader.page.locator("header")).toHaveCSS(
            "background-color",
            colorScheme === "light" ? "rgb(255, 255, 255)" : /^(oklab|rgba|color)\(/,
          );
          await saveScreenshot(reader.page, `reports-${width}-${colorScheme}-client-view-js-on`);
          expect(reader.messages, `${width} px ${colorScheme}`).toEqual([]);
          expect(await reader.page.locator("script").count()).toBe(0);
        } finally {
          await reader.context.close();
        }
      }
    }

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("share-Acme: spring placements").getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByTestId("share-Acme: spring placements")).toContainText("Revoked");

    const revoked = await visitor.goto(reportUrl);
    expect(revoked?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { name: "This report is not available" })).toBeVisible();
    const gone = await openAsReader(browser, reportUrl, { width: 390, height: 844, colorScheme: "dark" });
    try {
      expect(gone.status).toBe(404);
      expect(gone.csp).toContain("script-src 'none'");
      await expect(gone.page.getByRole("heading", { name: "This report is not available" })).toBeVisible();
      await saveScreenshot(gone.page, "reports-390-dark-not-available-js-on");
      // Chromium reports the 404 itself; nothing else.
      expect(gone.messages.filter((message) => !/status of 404/.test(message))).toEqual([]);
    } finally {
      await gone.context.close();
    }
  } finally {
    await client.close();
  }
});
