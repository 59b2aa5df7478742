import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as alerts } from "@/app/api/account/alerts/route";
import { GET as getNotifications, PUT as putNotifications } from "@/app/api/account/notifications/route";
import { DELETE as deleteMember } from "@/app/api/account/members/[id]/route";
import { GET as muteGet, POST as mute } from "@/app/api/mute/route";
import { runDigests } from "@/lib/alerts/digests";
import { recordAlertEvents, type NewAlertEvent } from "@/lib/alerts/events";
import { runExpiryReminders } from "@/lib/alerts/expiry";
import { alertLinks } from "@/lib/alerts/links";
import type { Database } from "@/lib/db";
import {
  alertDelivery,
  alertEvent,
  digestRun,
  monitor,
  monitorMute,
  notificationPreference,
  outbox,
  trackedLink,
} from "@/lib/db/schema";
import type { StoredLink } from "@/lib/db/schema/monitors";
import { deliverDue, smtpTransport } from "@/lib/mail/sender";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  itEnforcesRoles,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";

const SECRET = "test-secret-test-secret-test-secret-0123";
process.env.BETTER_AUTH_SECRET = SECRET;

afterAll(closeAll);

const links = alertLinks("http://localhost:3000", SECRET);
const HOSTILE_ANCHOR = "<img src=x onerror=alert(1)>";

const seen = (overrides: Partial<StoredLink> = {}): StoredLink => ({
  href: "https://mysite.example/landing",
  position: 4,
  linkType: "external",
  anchorText: HOSTILE_ANCHOR,
  isNofollow: false,
  isSponsored: false,
  isUgc: false,
  isImage: false,
  httpStatus: 200,
  matchedGroupName: null,
  ...overrides,
});

const ROUTES: RouteCase[] = [
  { name: "GET /alerts", handler: alerts, method: "GET", path: "/api/account/alerts", minRole: "viewer" },
  {
    name: "GET /notifications",
    handler: getNotifications,
    method: "GET",
    path: "/api/account/notifications",
    minRole: "viewer",
  },
  {
    name: "PUT /notifications",
    handler: putNotifications,
    method: "PUT",
    path: "/api/account/notifications",
    minRole: "viewer",
    body: () => ({ digestHourUtc: 7 }),
  },
];

describe.each(BACKENDS)("alerts and alert emails (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let monitorId: string;
  let linkId: string;
  let otherMonitorId: string;

  async function addMonitor(organizationId: string, url: string, expiresOn: string | null = null) {
    const id = randomUUID();
    await database.db
      .insert(monitor)
      .values({ id, organizationId, url, intervalMinutes: 1440, nextCheckAt: new Date() });
    const tracked = randomUUID();
    await database.db.insert(trackedLink).values({
      id: tracked,
      organizationId,
      monitorId: id,
      target: "https://mysite.example/landing",
      match: "exact",
      expectedRel: "follow",
      source: "manual",
      state: "live",
      expiresOn,
    });
    return { id, tracked };
  }

  const missing = (): NewAlertEvent => ({
    type: "link_missing",
    monitorId,
    trackedLinkId: linkId,
    checkId: null,
    before: { state: "live", link: seen() },
    after: { state: "missing", link: null },
  });

  async function record(organizationId: string, events: NewAlertEvent[], now = new Date()) {
    return database.db.transaction((tx) => recordAlertEvents(tx, organizationId, events, now, links));
  }

  const emailsTo = async (email: string) =>
    database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), eq(outbox.kind, "alert")));
  const digestsTo = async (email: string) =>
    database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), eq(outbox.kind, "digest")));

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "a");
    other = await makeTeam(database, "b");
    ({ id: monitorId, tracked: linkId } = await addMonitor(team.organizationId, "https://www.blog.example/post/"));
    ({ id: otherMonitorId } = await addMonitor(other.organizationId, "https://other.example/"));
  });

  beforeEach(async () => {
    await database.db.delete(alertEvent);
    await database.db.delete(outbox);
    await database.db.delete(notificationPreference);
    await database.db.delete(monitorMute);
    await database.db.delete(digestRun);
  });

  describe("guard", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
  });

  it("emails every member once per check, with a subject naming the change, both parts, escaped page text and one-click mute headers", async () => {
    const events = await record(team.organizationId, [
      missing(),
      {
        ...missing(),
        type: "rel_changed",
        before: { state: "live", link: seen() },
        after: { state: "rel_mismatch", link: seen({ isNofollow: true }) },
      },
    ]);
    expect(events).toHaveLength(2);
    for (const person of [team.owner, team.admin, team.member, team.viewer]) {
      const mails = await emailsTo(person.email);
      expect(mails, person.email).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.subject).toBe("Link removed: mysite.example/landing on blog.example/post (+1 more)");
      expect(mail?.text).toContain("https://www.blog.example/post/");
      expect(mail?.text).toContain(HOSTILE_ANCHOR); // plain text carries it as text
      expect(mail?.html).not.toContain("<img src=x");
      expect(mail?.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(mail?.html).toContain(`href="http://localhost:3000/app/monitors/${monitorId}"`);
      expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(mail?.headers?.["List-Unsubscribe"]).toMatch(
        /^<http:\/\/localhost:3000\/api\/mute\?token=[\w-]+\.[\w-]+>$/,
      );
      expect(mail?.recipientUserId).toBe(person.userId);
    }
    const deliveries = await database.db.select().from(alertDelivery);
    expect(deliveries).toHaveLength(8); // 2 events × 4 members, one row each
    // The other organization's members hear nothing.
    expect(await emailsTo(other.owner.email)).toHaveLength(0);
  });

  it("follows each member's preferences: off, types, digest modes", async () => {
    const as = (cookie: string, body: unknown) =>
      call(putNotifications, "PUT", "/api/account/notifications", { cookie, body });
    expect((await call(getNotifications, "GET", "/x", { cookie: team.member.cookie })).json).toEqual({
      email: "immediate",
      types: [
        "link_missing",
        "link_restored",
        "link_broken",
        "link_fixed",
        "rel_changed",
        "anchor_changed",
        "page_noindex",
        "page_unreachable",
        "link_expiring",
        "verdict_changed",
        "crawler_access_changed",
      ],
      digestHourUtc: 8,
    });
    expect((await as(team.member.cookie, { email: "off" })).json).toMatchObject({ email: "off", digestHourUtc: 8 });
    const onlyBroken = await as(team.admin.cookie, { types: ["link_broken", "link_fixed"] });
    expect(onlyBroken.json).toMatchObject({ email: "immediate", types: ["link_broken", "link_fixed"] });
    await as(team.viewer.cookie, { email: "daily", digestHourUtc: 23 });
    expectError(await as(team.owner.cookie, { email: "hourly" }), 400, "INVALID_REQUEST");
    const badType = await as(team.owner.cookie, { types: ["link_gone"] });
    expectError(badType, 400, "INVALID_REQUEST");
    expect(String(badType.json?.error)).toMatch(/^types\.0: /);
    expectError(await as(team.owner.cookie, { digestHourUtc: 24 }), 400, "INVALID_REQUEST");
    expectError(await as(team.owner.cookie, { email: "off", extra: 1 }), 400, "INVALID_REQUEST");

    await record(team.organizationId, [missing()]);
    expect(await emailsTo(team.owner.email)).toHaveLength(1);
    expect(await emailsTo(team.member.email)).toHaveLength(0);
    expect(await emailsTo(team.admin.email)).toHaveLength(0);
    expect(await emailsTo(team.viewer.email)).toHaveLength(0);
  });

  it("mutes one monitor for one recipient with the signed link, and undoes it; a forged or altered token does nothing", async () => {
    const token =
      new URL(links.oneClick({ kind: "mute", userId: team.member.userId, monitorId })).searchParams.get("token") ?? "";
    const clicked = await call(mute, "POST", `/api/mute?token=${token}`, { origin: null });
    expect(clicked.status, clicked.text).toBe(200);
    expect(clicked.json).toEqual({ muted: true, kind: "mute", pageUrl: "https://www.blog.example/post/" });
    await record(team.organizationId, [missing()]);
    expect(await emailsTo(team.member.email)).toHaveLength(0);
    expect(await emailsTo(team.owner.email)).toHaveLength(1);

    // The same signature with another monitor or user is refused.
    const [payload, signature] = token.split(".");
    const altered = Buffer.from(JSON.stringify(["mute", team.owner.userId, monitorId])).toString("base64url");
    expectError(
      await call(mute, "POST", `/api/mute?token=${altered}.${signature}`, { origin: null }),
      400,
      "INVALID_REQUEST",
    );
    expectError(
      await call(mute, "POST", `/api/mute?token=${payload}.x${signature}`, { origin: null }),
      400,
      "INVALID_REQUEST",
    );
    expectError(await call(mute, "POST", "/api/mute", { origin: null }), 400, "INVALID_REQUEST");
    expect((await call(muteGet, "GET", `/api/mute?token=${token}`)).status).toBe(405);

    const undone = await call(mute, "POST", `/api/mute?token=${token}&undo=1`, { origin: null });
    expect(undone.json).toMatchObject({ muted: false });
    await record(team.organizationId, [missing()]);
    expect(await emailsTo(team.member.email)).toHaveLength(1);
  });

  it("sends a digest user one email at the digest hour with the period's events, nothing before, never twice", async () => {
    await call(putNotifications, "PUT", "/x", {
      cookie: team.member.cookie,
      body: { email: "daily", digestHourUtc: 9 },
    });
    const morning = new Date("2031-03-04T07:10:00Z");
    await record(team.organizationId, [missing()], morning);
    await record(
      team.organizationId,
      [
        {
          ...missing(),
          type: "link_restored",
          before: { state: "missing", link: null },
          after: { state: "live", link: seen() },
        },
      ],
      new Date("2031-03-04T08:20:00Z"),
    );
    expect(await emailsTo(team.member.email)).toHaveLength(0); // digest users get no immediate email
    expect(await runDigests(database.db, new Date("2031-03-04T08:59:59Z"), links)).toBe(0);
    expect(await digestsTo(team.member.email)).toHaveLength(0);

    expect(await runDigests(database.db, new Date("2031-03-04T09:00:30Z"), links)).toBe(1);
    expect(await runDigests(database.db, new Date("2031-03-04T09:01:00Z"), links)).toBe(0);
    expect(await runDigests(database.db, new Date("2031-03-04T17:00:00Z"), links)).toBe(0);
    const [digest, ...rest] = await digestsTo(team.member.email);
    expect(rest).toHaveLength(0);
    expect(digest?.subject).toMatch(/^Your daily LinkLens digest: 2 changes on 1 page/);
    expect(digest?.text).toContain("Link removed: mysite.example/landing on blog.example/post");
    expect(digest?.text).toContain("Link back: mysite.example/landing on blog.example/post");
    expect(digest?.html).not.toContain("<img src=x");
    expect(digest?.headers?.["List-Unsubscribe"]).toMatch(/\/api\/mute\?token=/);
    // Immediate users were not in the digest run.
    expect(await digestsTo(team.owner.email)).toHaveLength(0);
    // The next day's digest carries only what happened since.
    await record(team.organizationId, [missing()], new Date("2031-03-05T03:00:00Z"));
    expect(await runDigests(database.db, new Date("2031-03-05T09:00:00Z"), links)).toBe(1);
    const second = (await digestsTo(team.member.email)).find((mail) => mail.id !== digest?.id);
    expect(second?.subject).toMatch(/: 1 change on 1 page/);
  });

  it("sends weekly digests on Mondays only", async () => {
    await call(putNotifications, "PUT", "/x", {
      cookie: team.viewer.cookie,
      body: { email: "weekly", digestHourUtc: 6 },
    });
    await record(team.organizationId, [missing()], new Date("2031-03-05T10:00:00Z")); // a Wednesday
    expect(await runDigests(database.db, new Date("2031-03-08T06:30:00Z"), links)).toBe(0); // Saturday
    expect(await runDigests(database.db, new Date("2031-03-10T05:59:00Z"), links)).toBe(0); // Monday, before the hour
    expect(await runDigests(database.db, new Date("2031-03-10T06:00:00Z"), links)).toBe(1);
    expect((await digestsTo(team.viewer.email))[0]?.subject).toMatch(/^Your weekly LinkLens digest/);
  });

  it("one digest however many instances run the pass at once", async () => {
    await call(putNotifications, "PUT", "/x", {
      cookie: team.member.cookie,
      body: { email: "daily", digestHourUtc: 9 },
    });
    await record(team.organizationId, [missing()], new Date("2031-04-01T08:00:00Z"));
    const at = new Date("2031-04-01T09:00:00Z");
    const results = await Promise.all([
      runDigests(database.db, at, links),
      runDigests(database.db, at, links),
      runDigests(database.db, at, links),
    ]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await digestsTo(team.member.email)).toHaveLength(1);
  });

  it("reminds 7 days and 1 day before expiresOn, once each, from a daily pass", async () => {
    const { tracked } = await addMonitor(team.organizationId, "https://expiring.example/post", "2031-06-10");
    const count = async () =>
      (
        await database.db
          .select()
          .from(alertEvent)
          .where(and(eq(alertEvent.trackedLinkId, tracked), eq(alertEvent.type, "link_expiring")))
      ).length;
    expect(await runExpiryReminders(database.db, new Date("2031-06-02T06:00:00Z"), links)).toBe(0); // 8 days before
    expect(await runExpiryReminders(database.db, new Date("2031-06-03T06:00:00Z"), links)).toBe(1); // 7 days before
    expect(await runExpiryReminders(database.db, new Date("2031-06-03T18:00:00Z"), links)).toBe(0);
    expect(await runExpiryReminders(database.db, new Date("2031-06-06T06:00:00Z"), links)).toBe(0);
    expect(await runExpiryReminders(database.db, new Date("2031-06-09T00:30:00Z"), links)).toBe(1); // the day before
    expect(await runExpiryReminders(database.db, new Date("2031-06-10T12:00:00Z"), links)).toBe(0);
    expect(await count()).toBe(2);
    const mails = (await emailsTo(team.owner.email)).map((mail) => mail.subject).sort();
    expect(mails).toEqual([
      "Placement expires in 7 days: mysite.example/landing on expiring.example/post",
      "Placement expires tomorrow: mysite.example/landing on expiring.example/post",
    ]);
  });

  it("lists the organization's events newest first with filters and pages; another organization's stay apart", async () => {
    await record(team.organizationId, [missing()], new Date("2031-01-01T00:00:00Z"));
    await record(team.organizationId, [{ ...missing(), type: "link_restored" }], new Date("2031-01-02T00:00:00Z"));
    await record(
      other.organizationId,
      [{ ...missing(), monitorId: otherMonitorId, trackedLinkId: null, type: "page_unreachable" }],
      new Date("2031-01-03T00:00:00Z"),
    );
    const all = await call(alerts, "GET", "/api/account/alerts", { cookie: team.viewer.cookie });
    expect(all.status, all.text).toBe(200);
    const items = (all.json as { items: Array<Record<string, unknown>> }).items;
    expect(items.map((item) => item.type)).toEqual(["link_restored", "link_missing"]);
    expect(Object.keys(items[0] ?? {}).sort()).toEqual([
      "after",
      "before",
      "createdAt",
      "id",
      "monitorId",
      "trackedLinkId",
      "type",
    ]);
    expect(items[1]).toMatchObject({
      monitorId,
      trackedLinkId: linkId,
      before: { state: "live" },
      after: { state: "missing", link: null },
      createdAt: "2031-01-01T00:00:00.000Z",
    });
    const filtered = await call(alerts, "GET", "/api/account/alerts?type=link_missing,link_broken", {
      cookie: team.viewer.cookie,
    });
    expect((filtered.json as { items: unknown[] }).items).toHaveLength(1);
    const page = await call(alerts, "GET", "/api/account/alerts?limit=1", { cookie: team.viewer.cookie });
    const next = (page.json as { nextCursor: string }).nextCursor;
    const second = await call(alerts, "GET", `/api/account/alerts?limit=1&cursor=${next}`, {
      cookie: team.viewer.cookie,
    });
    expect((second.json as { items: Array<{ type: string }> }).items[0]?.type).toBe("link_missing");
    expect(
      (await call(alerts, "GET", `/api/account/alerts?monitorId=${otherMonitorId}`, { cookie: team.viewer.cookie }))
        .json,
    ).toEqual({ items: [], nextCursor: null });
    expectError(
      await call(alerts, "GET", "/api/account/alerts?type=nope", { cookie: team.viewer.cookie }),
      400,
      "INVALID_REQUEST",
    );
    expectError(
      await call(alerts, "GET", "/api/account/alerts?since=yesterday", { cookie: team.viewer.cookie }),
      400,
      "INVALID_REQUEST",
    );
  });

  it("drops a waiting alert email when its recipient leaves the team before it goes out, and sends the rest once", async () => {
    const smtp: TestSmtpServer = await startSmtpServer();
    try {
      // The other team (a third would hit the sign-up limit of this test's single client address).
      const team2 = other;
      const { id } = await addMonitor(team2.organizationId, "https://leaving.example/");
      await record(team2.organizationId, [
        {
          ...missing(),
          monitorId: id,
          trackedLinkId: null,
          type: "page_noindex",
          before: { noindex: false },
          after: { noindex: true, httpStatus: 200 },
        },
      ]);
      const removed = await call(deleteMember, "DELETE", "/x", {
        cookie: team2.owner.cookie,
        params: { id: team2.member.memberId ?? "" },
      });
      expect(removed.status, removed.text).toBe(204);
      const options = {
        db: database.db,
        transport: smtpTransport(smtp.url),
        from: "LinkLens <alerts@linklens.test>",
        now: () => new Date(Date.now() + 1000),
      };
      const pass = await deliverDue(options);
      expect(pass).toMatchObject({ sent: 3, dropped: 1 });
      expect(await deliverDue(options)).toMatchObject({ sent: 0, dropped: 0 });
      const mails = await smtp.waitFor(3);
      expect(mails.map((mail) => (mail.to && "text" in mail.to ? mail.to.text : "")).sort()).toEqual(
        [team2.admin.email, team2.owner.email, team2.viewer.email].sort(),
      );
      const [mail] = mails;
      expect(mail?.subject).toBe("Page set to noindex: leaving.example");
      expect(mail?.html).toBeTruthy();
      expect(mail?.text).toContain("noindex");
      // mailparser folds List-* headers into one structured "list" header; the raw lines are what clients read.
      const raw = (key: string) => mail?.headerLines.find((line) => line.key === key)?.line.replace(/\r\n[ \t]+/g, " ");
      expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(raw("list-unsubscribe")).toMatch(
        /^List-Unsubscribe: <http:\/\/localhost:3000\/api\/mute\?token=[\w-]+\.[\w-]+>$/,
      );
    } finally {
      await smtp.stop();
    }
  });
});
