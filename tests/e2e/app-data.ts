import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { confirmOwnAddress } from "./confirm-address";
import { setFixturePage } from "./monitoring";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";

/**
 * A team with some of everything, for tests that look at every signed-in page: saved audits (pasted
 * twice, for a comparison, and a rendered URL of the fixture shop), domain groups, monitors whose
 * tracked links have long URLs (one confirmed missing, so there are alerts and a timeline, one page
 * that fails), two webhooks with deliveries (one receiver answers, one is missing), client-report links, a
 * second member and pending invitations.
 */

export interface TeamData {
  ownerEmail: string;
  urlAuditId: string;
  pasteAuditId: string;
  monitorId: string;
  invitationId: string;
  /** A long tracked-link target on the main monitor. */
  longTarget: string;
  /** A client report of the tag "guest posts" (its URL, with the token), for pages opened signed out. */
  reportUrl: string;
}

const PASSWORD = "correct horse battery";

/** A long, real-world shaped URL: tracking parameters and a deep path. */
const longUrl = (run: number, slug: string) =>
  `${FIXTURE_ORIGIN}/p/${slug}-${run}/reviews/2026/the-complete-buyers-guide-to-trail-running-shoes?utm_source=guest-post&utm_medium=referral&utm_campaign=spring-launch-2026&ref=partner-network`;

const PASTED = (
  extra: string,
) => `<!doctype html><html><head><title>A guest post with a rather long title about trail running shoes</title></head><body>
<p><a href="/about">About</a> · <a href="https://shop.sister.example/deals/trail-running-shoes/summer-collection-2026?utm_source=blog" rel="sponsored">Sister deal on the summer collection</a></p>
<p><a href="https://outsider.example/a/very/long/path/that/does/not/break/nicely/on/a/phone/screen/without/help">Outsider</a></p>
${extra}
</body></html>`;

/** Signs up through the form, as a person does; the page's context then holds the session. */
export async function signUp(page: Page, name: string, email: string): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: `${name}'s team` })).toBeVisible();
}

async function send(
  request: APIRequestContext,
  method: "POST" | "PUT",
  path: string,
  data: unknown,
  status: number,
): Promise<unknown> {
  const response = await request.fetch(path, { method, data, headers: { origin: APP_ORIGIN } });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
  return response.status() === 204 ? null : response.json();
}

/** Checks a monitor now; a scheduled check running at that moment answers 409, so try again. */
async function check(request: APIRequestContext, monitorId: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await request.post(`/api/account/monitors/${monitorId}/check`, {
      headers: { origin: APP_ORIGIN },
    });
    if (response.status() === 200) return;
    expect(response.status(), await response.text()).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("the monitor stayed busy");
}

/** Creates the team's data; `page` is signed up as its owner first. */
export async function createTeamData(page: Page, browser: Browser): Promise<TeamData> {
  const run = Date.now();
  const ownerEmail = `olivia-${run}@example.com`;
  await signUp(page, "Olivia", ownerEmail);
  const api = page.request;

  await send(
    api,
    "POST",
    "/api/account/domain-groups",
    { name: "Sister sites", domains: ["mine.example", "sister.example", "another-sister-brand.example"] },
    201,
  );
  await send(api, "POST", "/api/account/domain-groups", { name: "Partners", domains: ["partner.example"] }, 201);

  // Webhooks before the monitors, so the loss below is delivered too: one receiver that answers, one that does not exist (404).
  await setFixturePage(`/e2e-hooks-${run}/inbox`, "ok");
  const inbox = (await send(
    api,
    "POST",
    "/api/account/webhooks",
    { url: `${FIXTURE_ORIGIN}/e2e-hooks-${run}/inbox`, description: "CRM inbox" },
    201,
  )) as { id: string };
  const missingReceiver = `${FIXTURE_ORIGIN}/e2e-hooks-${run}/a-rather-long-path/that-is-not-there/on-the-receiver?token=abcdefghijklmnopqrstuvwxyz0123456789abcdef`;
  const gone = (await send(
    api,
    "POST",
    "/api/account/webhooks",
    { url: missingReceiver, kind: "slack", types: ["link_missing", "link_restored"] },
    201,
  )) as { id: string };
  await send(api, "POST", `/api/account/webhooks/${inbox.id}/test`, undefined, 200);
  await send(api, "POST", `/api/account/webhooks/${gone.id}/test`, undefined, 200);

  await send(
    api,
    "POST",
    "/api/account/audits",
    { html: PASTED('<p><a href="https://gone.example/">Soon gone</a></p>'), domain: "blog.mine.example" },
    201,
  );
  const paste = (await send(
    api,
    "POST",
    "/api/account/audits",
    { html: PASTED('<p><a href="https://new.example/brand/new/page">Brand new</a></p>'), domain: "blog.mine.example" },
    201,
  )) as { id: string };
  const shop = (await send(api, "POST", "/api/account/audits", { url: `${FIXTURE_ORIGIN}/shop` }, 201)) as {
    id: string;
  };

  // A placement page with several long tracked links; one of them disappears after the first check.
  const placement = `/e2e-layout-${run}/a-long-article-slug-about-the-best-trail-running-shoes-of-the-year`;
  const targets = ["trail-x", "trail-y", "trail-z"].map((slug) => longUrl(run, slug));
  const [kept, lost, third] = targets as [string, string, string];
  const anchors = (list: string[]) =>
    list
      .map((href, i) => `<a href="${href}"${i === 1 ? ' rel="sponsored"' : ""}>Trail shoe ${i + 1} of our review</a>`)
      .join(" · ");
  await setFixturePage(placement, `<!doctype html><title>Review</title><p>We recommend ${anchors(targets)}.</p>`);
  const monitor = (await send(
    api,
    "POST",
    "/api/account/monitors",
    {
      url: `${FIXTURE_ORIGIN}${placement}`,
      intervalMinutes: 1440,
      tags: ["guest posts", "spring 2026"],
      links: [
        {
          target: kept,
          expectedAnchor: "Trail shoe 1 of our review",
          expectedRel: "follow",
          notes: "Paid placement, renew in June",
          cost: 250,
          expiresOn: "2026-12-31",
        },
        { target: lost },
        { target: third, expectedRel: "sponsored" },
        { target: "mine.example" },
      ],
    },
    201,
  )) as { id: string };
  await check(api, monitor.id);
  await setFixturePage(placement, `<!doctype html><title>Review</title><p>We recommend ${anchors([kept, third])}.</p>`);
  await check(api, monitor.id);
  await check(api, monitor.id); // the second miss confirms the loss: an alert

  const report = (await send(
    api,
    "POST",
    "/api/account/shares",
    { title: "Acme: guest posts, spring 2026", scope: "tag", tag: "guest posts" },
    201,
  )) as { url: string };
  await send(
    api,
    "POST",
    "/api/account/shares",
    {
      title: "The shop audit for the client",
      scope: "audit",
      auditId: shop.id,
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    },
    201,
  );

  const failing = (await send(
    api,
    "POST",
    "/api/account/monitors",
    { url: `${FIXTURE_ORIGIN}/e2e-layout-${run}/not-there`, links: [{ target: kept }] },
    201,
  )) as { id: string };
  await check(api, failing.id);

  // A second member, and invitations still waiting.
  const memberEmail = `marcus-${run}@example.com`;
  const forMember = (await send(
    api,
    "POST",
    "/api/account/invitations",
    { email: memberEmail, role: "member" },
    201,
  )) as { id: string };
  const pending = (await send(
    api,
    "POST",
    "/api/account/invitations",
    { email: `a.rather.long.name-${run}@agency-with-a-long-domain.example`, role: "viewer" },
    201,
  )) as { id: string };
  await send(api, "POST", "/api/account/invitations", { email: `viewer-${run}@example.com`, role: "member" }, 201);
  const memberContext = await browser.newContext();
  await send(
    memberContext.request,
    "POST",
    "/api/auth/sign-up/email",
    { name: "Marcus", email: memberEmail, password: PASSWORD },
    200,
  );
  await confirmOwnAddress(memberContext.request);
  await send(
    memberContext.request,
    "POST",
    "/api/auth/organization/accept-invitation",
    { invitationId: forMember.id },
    200,
  );
  await memberContext.close();

  return {
    ownerEmail,
    urlAuditId: shop.id,
    pasteAuditId: paste.id,
    monitorId: monitor.id,
    invitationId: pending.id,
    longTarget: kept,
    reportUrl: report.url,
  };
}
