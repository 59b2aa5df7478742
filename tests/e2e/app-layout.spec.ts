import type { Cookie, Page } from "@playwright/test";
import { createTeamData, type TeamData } from "./app-data";
import { appPageRoutes } from "./app-pages";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { expect, test } from "./test";

/**
 * Every signed-in page, filled with data, on a phone (390 px) and a laptop (1280 px): it loads with
 * HTTP 200 and no console error, the page itself never scrolls sideways, axe finds nothing, and a
 * screenshot of each lands in test-results/screenshots/app-<width>-<name>.png for a person to look at.
 */

let data: TeamData;
let ownerCookies: Cookie[];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext();
  data = await createTeamData(await context.newPage(), browser);
  ownerCookies = await context.cookies();
  await context.close();
});
// Every test is the owner's browser: the session made above.
test.beforeEach(async ({ context }) => {
  await context.addCookies(ownerCookies);
});

interface Visit {
  name: string;
  route: string;
  url: (data: TeamData) => string;
  /** Waits until the page's data is on screen (client panels load theirs after the first paint). */
  ready: (page: Page, data: TeamData) => Promise<void>;
}

const VISITS: Visit[] = [
  {
    name: "overview",
    route: "/app",
    url: () => "/app",
    ready: async (page) => {
      await expect(page.getByTestId("monitoring-counts")).toBeVisible();
      await expect(
        page.getByRole("img", { name: "Tracked links by state at the end of each day, last 30 days" }),
      ).toBeVisible();
    },
  },
  {
    name: "monitors",
    route: "/app/monitors",
    url: () => "/app/monitors",
    ready: (page) => expect(page.getByRole("heading", { name: "Monitored pages (2)" })).toBeVisible(),
  },
  {
    name: "monitor",
    route: "/app/monitors/[id]",
    url: (d) => `/app/monitors/${d.monitorId}`,
    ready: async (page, d) => {
      await expect(page.getByTestId("timeline")).toBeVisible();
      await expect(page.getByTestId(`link-${d.longTarget}`).getByText("Live", { exact: true })).toBeVisible();
      await expect(page.getByTestId(`link-${d.longTarget}`).getByTestId("live-percent")).toHaveText("100.0 % live");
    },
  },
  {
    name: "monitor-editing-a-link",
    route: "/app/monitors/[id]",
    url: (d) => `/app/monitors/${d.monitorId}`,
    ready: async (page, d) => {
      await page.getByTestId(`link-${d.longTarget}`).getByRole("button", { name: "Edit" }).click();
      await expect(page.getByLabel("Expected anchor")).toHaveValue("Trail shoe 1 of our review");
    },
  },
  {
    // Every link's evidence open: records with screenshots (first seen live), a lost link's, and none yet.
    name: "monitor-evidence",
    route: "/app/monitors/[id]",
    url: (d) => `/app/monitors/${d.monitorId}`,
    ready: async (page, d) => {
      const toggles = page.getByRole("button", { name: /^Evidence of / });
      await expect(toggles).toHaveCount(4);
      for (const toggle of await toggles.all()) await toggle.click();
      await expect(page.getByTestId("evidence-list")).toHaveCount(4);
      await expect(page.getByText("Loading evidence…")).toHaveCount(0);
      const kept = page
        .getByRole("region", { name: `Evidence of ${d.longTarget}` })
        .locator('[data-reason="first_live"]');
      await expect(kept).toBeVisible();
      const image = kept.locator("img");
      await image.scrollIntoViewIfNeeded();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    },
  },
  {
    name: "links",
    route: "/app/links",
    url: () => "/app/links",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Tracked links (5)" })).toBeVisible();
      await expect(page.getByTestId("uptime-strip")).toHaveCount(5);
    },
  },
  {
    name: "audits",
    route: "/app/audits",
    url: () => "/app/audits",
    ready: (page) => expect(page.getByTestId("audit-row")).toHaveCount(3),
  },
  {
    name: "audit-url",
    route: "/app/audits/[id]",
    url: (d) => `/app/audits/${d.urlAuditId}`,
    ready: async (page) => {
      await expect(page.getByTestId("results")).toBeVisible();
      await expect(page.getByRole("region", { name: "Compare with…" })).toContainText(
        "No other audit of this URL yet.",
      );
    },
  },
  {
    name: "audit-compare",
    route: "/app/audits/[id]",
    url: (d) => `/app/audits/${d.pasteAuditId}`,
    ready: async (page) => {
      const compare = page.getByRole("region", { name: "Compare with…" });
      await compare.getByRole("button", { name: "Compare" }).click();
      await expect(compare.getByTestId("comparison")).toContainText("1 added, 1 removed");
    },
  },
  {
    name: "groups",
    route: "/app/groups",
    url: () => "/app/groups",
    ready: (page) => expect(page.getByTestId("group-Sister sites")).toBeVisible(),
  },
  {
    name: "webhooks",
    route: "/app/webhooks",
    url: () => "/app/webhooks",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Webhooks (2)" })).toBeVisible();
      await expect(
        page
          .getByTestId("webhook-CRM inbox")
          .getByTestId("delivery-row")
          .filter({ hasText: /delivered/i })
          .first(),
      ).toBeVisible();
      await expect(page.getByTestId("delivery-row").filter({ hasText: "HTTP 404" }).first()).toBeVisible();
    },
  },
  {
    name: "alerts",
    route: "/app/alerts",
    url: () => "/app/alerts",
    ready: (page) => expect(page.getByText(/Link removed: 127\.0\.0\.1\/p\/trail-y/)).toBeVisible(),
  },
  {
    name: "reports",
    route: "/app/reports",
    url: () => "/app/reports",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: /^Report links \(\d+\)$/ })).toBeVisible();
      await expect(page.getByTestId("share-Acme: guest posts, spring 2026")).toContainText("Tag “guest posts”");
    },
  },
  {
    name: "reports-link-created",
    route: "/app/reports",
    url: () => "/app/reports",
    ready: async (page) => {
      await page.getByLabel("Title (the client sees it)").fill("One page for the client");
      await page.getByRole("combobox", { name: /^Shows/ }).selectOption("monitor");
      await page.getByRole("button", { name: "Create link" }).click();
      await expect(page.getByRole("textbox", { name: "Report link", exact: true })).toHaveValue(
        /\/r\/[A-Za-z0-9_-]{32}$/,
      );
    },
  },
  {
    name: "team",
    route: "/app/team",
    url: () => "/app/team",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Members (2)" })).toBeVisible();
      await expect(page.getByText(/agency-with-a-long-domain/)).toBeVisible();
    },
  },
  {
    name: "settings",
    route: "/app/settings",
    url: () => "/app/settings",
    ready: (page) => expect(page.getByTestId("outbox-row").first()).toBeVisible(),
  },
  {
    name: "branding",
    route: "/app/settings/branding",
    url: () => "/app/settings/branding",
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Branding", level: 1 })).toBeVisible();
      await expect(page.getByTestId("brand-preview-band")).toContainText("Client report by Olivia's team");
    },
  },
  {
    name: "invitation",
    route: "/app/invitations/[id]",
    url: (d) => `/app/invitations/${d.invitationId}`,
    ready: (page) => expect(page.getByRole("button", { name: "Accept invitation" })).toBeVisible(),
  },
];

test("the layout test visits every page under app/(app)/", () => {
  expect([...new Set(VISITS.map((visit) => visit.route))].sort()).toEqual(appPageRoutes());
});

const WIDTHS = [
  { width: 390, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  { width: 1280, use: { viewport: { width: 1280, height: 800 } } },
];

for (const { width, use } of WIDTHS) {
  test.describe(`${width} px wide`, () => {
    test.use(use);
    for (const visit of VISITS) {
      test(`${visit.name}: HTTP 200, no console error, no sideways scrolling, axe-clean`, async ({ page, shot }) => {
        const response = await page.goto(visit.url(data));
        expect(response?.status(), `${visit.name} answered ${response?.status()}`).toBe(200);
        await visit.ready(page, data);
        await expectNoHorizontalScroll(page, `${visit.name} at ${width} px`);
        await expectAxeClean(page, `${visit.name} at ${width} px`);
        await shot(`app-${width}-${visit.name}`);
      });
    }
  });
}

test("a saved audit opened directly answers 200 and logs no console error", async ({ page, consoleErrors }) => {
  const response = await page.goto(`/app/audits/${data.pasteAuditId}`);
  expect(response?.status()).toBe(200);
  await expect(
    page.frameLocator('iframe[title^="Sanitized snapshot"]').getByRole("link", { name: "Brand new" }),
  ).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("the team's only owner is not offered Leave team, and is told why", async ({ page }) => {
  await page.goto("/app/team");
  await expect(page.getByRole("heading", { name: "Members (2)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Leave team" })).toHaveCount(0);
  await expect(page.getByTestId(`member-${data.ownerEmail}`)).toContainText("You are the only owner");
});
