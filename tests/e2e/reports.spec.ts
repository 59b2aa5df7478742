import { setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * A client report end to end: an owner monitors a page (checked, so its link is live), creates a report
 * link of its tag on the Reports page (the URL is shown once), a client opens it signed out with
 * JavaScript off and sees the link, its state and its history strip; the owner revokes it and the
 * client's next visit is the 404 page.
 */
test("create a report link, open it signed out without JavaScript, revoke it", async ({ page, browser, shot }) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const placement = `/e2e-report-${run}`;
  const target = `${FIXTURE_ORIGIN}/p/client-product`;
  await setFixturePage(placement, `<!doctype html><title>Review</title><p>Try <a href="${target}">the client's product</a>.</p>`);
  const signUp = await page.request.post("/api/auth/sign-up/email", { data: { name: "Rita", email: `rita-${run}@example.com`, password: "correct horse battery" }, headers: { origin: APP_ORIGIN } });
  expect(signUp.status()).toBe(200);
  const monitor = await page.request.post("/api/account/monitors", { data: { url: `${FIXTURE_ORIGIN}${placement}`, tags: ["client acme"], links: [{ target, notes: "Invoice 42, paid" }] }, headers: { origin: APP_ORIGIN } });
  expect(monitor.status()).toBe(201);
  const monitorId = ((await monitor.json()) as { id: string }).id;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const checked = await page.request.post(`/api/account/monitors/${monitorId}/check`, { headers: { origin: APP_ORIGIN } });
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
    await visitor.screenshot({ path: "test-results/screenshots/reports-1280-client-view.png", fullPage: true });

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("share-Acme: spring placements").getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByTestId("share-Acme: spring placements")).toContainText("Revoked");

    const revoked = await visitor.goto(reportUrl);
    expect(revoked?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { name: "This report is not available" })).toBeVisible();
  } finally {
    await client.close();
  }
});
