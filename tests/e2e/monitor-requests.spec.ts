import type { Page, Request } from "@playwright/test";
import { signUp } from "./app-data";
import { checkNow, setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * The monitor page reads its data in a number of requests that does not grow with its tracked links: the
 * server hands over the first data (no API read at all on load), a check re-renders the page from the
 * server in one request, and a new link re-reads the monitor and the one batch of strips. Counted with
 * Playwright's request events on a page with six links (the old client made 2 + N reads, and again after
 * every action).
 */

const LINKS = 6;

interface Seen {
  /** GETs of the account API, "GET /api/account/…". */
  reads: string[];
  /** Everything else sent to the API (the actions). */
  actions: string[];
  /** The page asked afresh from the server (router.refresh), not a prefetch. */
  refreshes: number;
  inFlight: number;
}

function watch(page: Page, pagePath: string): Seen {
  const seen: Seen = { reads: [], actions: [], refreshes: 0, inFlight: 0 };
  const counted = (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== APP_ORIGIN) return false;
    if (url.pathname.startsWith("/api/")) return true;
    const headers = request.headers();
    return url.pathname === pagePath && headers.rsc === "1" && !headers["next-router-prefetch"];
  };
  page.on("request", (request) => {
    if (!counted(request)) return;
    seen.inFlight += 1;
    const url = new URL(request.url());
    if (!url.pathname.startsWith("/api/")) seen.refreshes += 1;
    else if (request.method() === "GET") seen.reads.push(`GET ${url.pathname}`);
    else seen.actions.push(`${request.method()} ${url.pathname}`);
  });
  const done = (request: Request) => {
    if (counted(request)) seen.inFlight -= 1;
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return seen;
}

/** Once what the page shows is up to date, the requests it made for it have all been sent and answered. */
async function quiet(seen: Seen): Promise<void> {
  await expect.poll(() => seen.inFlight).toBe(0);
}

function reset(seen: Seen): void {
  seen.reads = [];
  seen.actions = [];
  seen.refreshes = 0;
}

test("the monitor page makes a bounded number of requests on load and after an action", async ({ page }) => {
  test.setTimeout(180_000);
  const run = Date.now();
  const placement = `/e2e-requests-${run}`;
  const targets = Array.from({ length: LINKS }, (_, index) => `${FIXTURE_ORIGIN}/p/requests-${run}-${index}`);
  const anchors = targets.map((target, index) => `<a href="${target}">Product ${index}</a>`).join(" · ");
  await setFixturePage(placement, `<!doctype html><title>Review</title><p>We recommend ${anchors}.</p>`);
  await signUp(page, "Reggie", `reggie-${run}@example.com`);
  const created = await page.request.post("/api/account/monitors", {
    headers: { origin: APP_ORIGIN },
    data: { url: `${FIXTURE_ORIGIN}${placement}`, links: targets.map((target) => ({ target })) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const monitorId = ((await created.json()) as { id: string }).id;
  const pagePath = `/app/monitors/${monitorId}`;

  const seen = watch(page, pagePath);
  await page.goto(pagePath);
  await expect(page.getByTestId("uptime-strip")).toHaveCount(LINKS);
  await expect(page.getByRole("heading", { name: `Tracked links (${LINKS})` })).toBeVisible();
  await quiet(seen);
  expect(seen.reads, "reads on load").toEqual([]);
  expect(seen.refreshes).toBe(0);

  // A check changes states, strips, checks and the timeline: one request re-renders the page.
  reset(seen);
  await checkNow(page);
  const timeline = page.getByTestId("timeline");
  await expect(timeline.getByText(/: pending → live$/)).toHaveCount(LINKS);
  await quiet(seen);
  expect(seen.reads, "reads after Check now").toEqual([]);
  expect(seen.refreshes, "page refreshes after Check now").toBe(1);
  expect(new Set(seen.actions)).toEqual(new Set([`POST /api/account/monitors/${monitorId}/check`]));

  // A new link: the action, the monitor read again, and the strips of its batch of links, in one request.
  reset(seen);
  await page.getByLabel("Track another link").fill(`${FIXTURE_ORIGIN}/p/requests-${run}-new`);
  await page.getByRole("button", { name: "Add link" }).click();
  await expect(page.getByText("Link added; it is checked within a minute.")).toBeVisible();
  await expect(page.getByTestId("uptime-strip")).toHaveCount(LINKS + 1);
  await quiet(seen);
  expect(seen.actions).toEqual([`POST /api/account/monitors/${monitorId}/links`]);
  expect(seen.reads.sort()).toEqual([`GET /api/account/links/uptime`, `GET /api/account/monitors/${monitorId}`]);
  expect(seen.refreshes).toBe(0);

  // Pausing answers with the monitor: nothing is read again.
  reset(seen);
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText("Paused.", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await quiet(seen);
  expect(seen.actions).toEqual([`PATCH /api/account/monitors/${monitorId}`]);
  expect(seen.reads).toEqual([]);
  expect(seen.refreshes).toBe(0);
});
