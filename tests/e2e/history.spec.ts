import type { BrowserContext } from "@playwright/test";
import { Client } from "pg";
import { generateHistory } from "../../scripts/lib/history-data";
import { startPostgres, type PostgresServer } from "../../scripts/lib/postgres";
import { startServer, type RunningServer } from "../../scripts/lib/server-process";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { expect, test } from "./test";

/**
 * History and client reports with a year and more of history behind them: a production server of its
 * own on PostgreSQL, whose organization gets 2,000 tracked links on 40 pages, created over 500 days and
 * changing state since (scripts/lib/history-data.ts, the benchmark's generator). Signed in: the
 * overview's chart and its 30/90/365 switch, the monitor page's and the Links page's strips. Signed out,
 * JavaScript off: a tag's client report (100 links, their strips) and the 404 of a bad token. Each at
 * 390 and 1280 px: no sideways scrolling, axe-clean, screenshots in test-results/screenshots/history-*.
 */

let postgres: PostgresServer;
let server: RunningServer;
let reportPath = "";
let ownerState: Awaited<ReturnType<BrowserContext["storageState"]>>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  postgres = await startPostgres();
  const url = await postgres.createDatabase();
  server = await startServer({
    DATABASE_URL: url,
    BETTER_AUTH_SECRET: "history-e2e-secret-history-e2e-secret-0",
    MONITOR_SCHEDULER: "off",
  });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const signUp = await context.request.post("/api/auth/sign-up/email", {
    data: { name: "Hanna", email: `hanna-${Date.now()}@example.com`, password: "correct horse battery" },
    headers: { origin: server.baseUrl },
  });
  expect(signUp.status()).toBe(200);
  const me = (await (await context.request.get("/api/account/me")).json()) as { organization: { id: string } };
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await generateHistory(db, me.organization.id, "a", 2_000);
    await db.query("ANALYZE");
  } finally {
    await db.end();
  }
  const share = await context.request.post("/api/account/shares", {
    data: { title: "Acme: every placement of the spring campaign", scope: "tag", tag: "tag-3" },
    headers: { origin: server.baseUrl },
  });
  expect(share.status()).toBe(201);
  reportPath = new URL(((await share.json()) as { url: string }).url).pathname;
  ownerState = await context.storageState();
  await context.close();
});

test.afterAll(async () => {
  await server?.stop();
  await postgres?.stop();
});

const WIDTHS = [
  { width: 390, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  { width: 1280, use: { viewport: { width: 1280, height: 800 } } },
];

for (const { width, use } of WIDTHS) {
  test.describe(`${width} px wide`, () => {
    test.use(use);

    test("signed in: the portfolio chart switches between 30, 90 and 365 days; strips on the monitor and Links pages", async ({
      context,
      page,
      shot,
    }) => {
      // Three pages, each drawn and scanned by axe at three ranges: minutes of work beside the Vitest run.
      test.setTimeout(180_000);
      await context.addCookies(ownerState.cookies);
      {
        await page.goto(`${server.baseUrl}/app`);
        const panel = page.getByRole("region", { name: "Portfolio over time" });
        await expect(
          panel.getByRole("img", { name: "Tracked links by state at the end of each day, last 30 days" }),
        ).toBeVisible();
        await expect(panel.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "true");
        // Today's legend counts are the links now: 2,000 of them.
        const legend = panel.getByRole("list", { name: "Legend" });
        await expect(legend).toContainText("Live");
        await expectNoHorizontalScroll(page, `overview at ${width} px`);
        await expectAxeClean(page, `overview at ${width} px`);
        await shot(`history-${width}-overview-30`);

        await panel.getByRole("link", { name: "365 days" }).click();
        await expect(page).toHaveURL(/\/app\?days=365/);
        const year = page.getByRole("img", { name: "Tracked links by state at the end of each day, last 365 days" });
        await expect(year).toBeVisible();
        // A tooltip per day: the first day's column names its counts.
        await expect(year.locator("rect[data-date] > title").first()).toHaveText(
          /^[A-Z][a-z]{2} \d{1,2}, \d{4}: \d+ live/,
        );
        await page.getByText("Show the numbers").click();
        await expect(
          page.getByRole("table", { name: "Tracked links by state at the end of each day" }).getByRole("row"),
        ).toHaveCount(366);
        await expectNoHorizontalScroll(page, `overview, 365 days, at ${width} px`);
        await shot(`history-${width}-overview-365`);
        await page.getByRole("link", { name: "90 days" }).click();
        await expect(
          page.getByRole("img", { name: "Tracked links by state at the end of each day, last 90 days" }),
        ).toBeVisible();

        await page.goto(`${server.baseUrl}/app/monitors/a-m7`);
        const strips = page.getByTestId("uptime-strip");
        await expect(strips).toHaveCount(50);
        await expect(strips.first()).toHaveAccessibleName(/^90-day history of https:\/\/mysite\.example\/a\//);
        await expect(page.getByTestId("live-percent").first()).toHaveText(/^\d{1,3}\.\d % live$/);
        await expect(strips.first().locator("rect[data-state] > title").first()).toHaveText(
          /^[A-Z][a-z]{2} \d{1,2}, \d{4}.*: (live|missing|broken|pending|not tracked yet)/,
        );
        await expectNoHorizontalScroll(page, `monitor at ${width} px`);
        await expectAxeClean(page, `monitor at ${width} px`);
        await shot(`history-${width}-monitor`);

        await page.goto(`${server.baseUrl}/app/links`);
        await expect(page.getByTestId("uptime-strip")).toHaveCount(100);
        await expectNoHorizontalScroll(page, `links at ${width} px`);
        await shot(`history-${width}-links`, { fullPage: false });
      }
    });

    test.describe("signed out, JavaScript off", () => {
      test.use({ javaScriptEnabled: false });

      test("a tag's client report: 100 links with their strips, read-only, and the 404 of a bad token", async ({
        page,
        shot,
      }) => {
        const response = await page.goto(`${server.baseUrl}${reportPath}`);
        expect(response?.status()).toBe(200);
        expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
        await expect(
          page.getByRole("heading", { level: 1, name: "Acme: every placement of the spring campaign" }),
        ).toBeVisible();
        await expect(page.getByText("Tracked links tagged “tag-3”")).toBeVisible();
        await expect(page.getByTestId("report-link")).toHaveCount(100);
        await expect(page.getByTestId("uptime-strip").first()).toHaveAccessibleName(/^90-day history of /);
        await expect(page.getByTestId("uptime-strip").first()).toHaveAccessibleDescription(/% live over 90 days\. /);
        await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute(
          "href",
          `${reportPath}/export.csv`,
        );
        await expect(page.getByRole("button")).toHaveCount(0);
        await expect(page.locator("form, input, select, textarea")).toHaveCount(0);
        await expectNoHorizontalScroll(page, `report at ${width} px`);
        await shot(`history-${width}-report`);

        const missing = await page.goto(`${server.baseUrl}${reportPath.slice(0, -1)}`);
        expect(missing?.status()).toBe(404);
        await expect(page.getByRole("heading", { name: "This report is not available" })).toBeVisible();
        await expectNoHorizontalScroll(page, `report 404 at ${width} px`);
        await shot(`history-${width}-report-404`);
      });
    });

    test("the client report is axe-clean", async ({ page }) => {
      await page.goto(`${server.baseUrl}${reportPath}`);
      await expect(page.getByTestId("report-link")).toHaveCount(100);
      await expectAxeClean(page, `report at ${width} px`);
      await page.goto(`${server.baseUrl}/r/not-a-token`);
      await expectAxeClean(page, `report 404 at ${width} px`);
    });
  });
}
