import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, like, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listShares, POST as createShare } from "@/app/api/account/shares/route";
import { DELETE as revokeShare } from "@/app/api/account/shares/[id]/route";
import { DELETE as removeScheduleRoute, PUT as putSchedule } from "@/app/api/account/shares/[id]/schedule/route";
import { POST as sendTest } from "@/app/api/account/shares/[id]/send-test/route";
import { POST as oneClick, GET as oneClickGet } from "@/app/api/report-emails/unsubscribe/route";
import { POST as confirmForm } from "@/app/report-emails/confirm/submit/route";
import { POST as unsubscribeForm } from "@/app/report-emails/unsubscribe/submit/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import { getConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import {
  activityLog,
  emailAttachment,
  outbox,
  reportRecipient,
  reportSchedule,
  share,
  verdictTransition,
} from "@/lib/db/schema";
import { deliverDue, smtpTransport } from "@/lib/mail/sender";
import { pruneAttachments } from "@/lib/mail/attachments";
import { confirmFromToken, consentStatus } from "@/lib/reports/consent";
import { configuredReportLinks } from "@/lib/reports/links";
import { productPrinter, type Printer } from "@/lib/reports/make-report";
import { CLAIM_MS, sendDueReports } from "@/lib/reports/send";
import { unsubscribeFromToken, unsubscribeStatus } from "@/lib/reports/unsubscribe";
import type { Share } from "@/lib/schemas/shares";
import { openShare } from "@/lib/shares/open";
import { startSmtpServer } from "../../helpers/smtp-server";
import { pdfText } from "../../helpers/pdf-text";
import { BACKENDS, call, closeAll, linkIn, useFreshDatabase, verifyEmail } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  type RouteCase,
} from "./guard-cases";
import { at, insertLinkWithHistory, insertMonitor } from "./history-setup";
import { makeSoloOwner, makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Scheduled reports on a share (reports-and-channels.md "Scheduled reports") on PGlite and PostgreSQL,
 * in this process with the real route handlers, the real Chromium printing the PDF, and time injected into
 * the scheduler's task: the schedule routes (roles, validation, 404 for another organization, 409 for a
 * revoked, expired or audit share), consent first (one confirmation email per address added, single-use
 * 7-day tokens, re-adding asks anew), the unsubscribe links (one-click POST, the form; a GET is 405),
 * sending at nextSendAt exactly once (twice at once, a missed send once), the email's words and share
 * link, the PDF read back with pdftotext through a real SMTP server, revoke and expiry ending the
 * schedule with nothing sent, send-test, and the activity log. The pages themselves over HTTP, and two
 * production instances: tests/integration/scheduled-reports-http.test.ts.
 */

const SECRET = "report-secret-report-secret-report-secret-0";
process.env.BETTER_AUTH_SECRET = SECRET;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
});

let prints = 0;
const printer: Printer = async (html) => {
  prints += 1;
  return productPrinter(getConfig())(html);
};

describe.each(BACKENDS)("scheduled reports (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let pageId = "";
  let auditShareId = "";
  let theirShareId = "";
  const now = Date.now();
  const links = () => configuredReportLinks(getConfig());
  const runtime = (at = new Date()) => ({ db: database.db, settings: getConfig(), now: () => at });
  const tick = (at: Date) =>
    sendDueReports({ db: database.db, settings: getConfig(), now: at, links: links(), print: printer });

  async function newShare(title: string, cookie = team.admin.cookie, body?: Record<string, unknown>) {
    const result = await call(createShare, "POST", "/api/account/shares", {
      cookie,
      body: body ?? { title, scope: "tag", tag: "client acme" },
    });
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as Share & { url: string };
  }
  function put(id: string, body: unknown, cookie = team.admin.cookie) {
    return call(putSchedule, "PUT", "/x", { cookie, params: { id }, body });
  }
  async function scheduled(id: string, body: Record<string, unknown>) {
    const result = await put(id, body);
    expect(result.status, result.text).toBe(200);
    return result.json as unknown as Share;
  }
  const weekly = (recipients: string[], extra: Record<string, unknown> = {}) => ({
    cadence: "weekly",
    weekday: 1,
    hourUtc: 9,
    recipients,
    ...extra,
  });
  async function scheduleRow(id: string) {
    const [row] = await database.db.select().from(reportSchedule).where(eq(reportSchedule.shareId, id));
    return row;
  }
  async function emailsAbout(id: string, kind?: string) {
    const rows = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.about, `share:${id}`), kind ? eq(outbox.kind, kind) : undefined))
      .orderBy(asc(outbox.createdAt), asc(outbox.recipient));
    return rows;
  }
  async function confirmTokenOf(id: string, email: string): Promise<string> {
    const rows = (await emailsAbout(id, "report_consent")).filter((row) => row.recipient === email);
    const url = new URL(linkIn(rows.at(-1)?.text ?? ""));
    expect(url.pathname).toBe("/report-emails/confirm");
    return url.searchParams.get("token") ?? "";
  }
  async function confirmAll(id: string, emails: string[]) {
    for (const email of emails)
      expect((await confirmFromToken(await confirmTokenOf(id, email), runtime())).state).toBe("confirmed");
  }
  /** Other tests' schedules out of the way, so a tick's count is this test's. */
  async function onlySchedule(id: string) {
    await database.db.delete(reportSchedule).where(ne(reportSchedule.shareId, id));
  }
  /** Weekly at the next whole hour: due within the hour, so the links' history of the last hours is in its period. */
  function soon(recipients: string[]) {
    const next = new Date(Math.ceil((Date.now() + 1) / HOUR) * HOUR);
    return weekly(recipients, { weekday: next.getUTCDay(), hourUtc: next.getUTCHours() });
  }
  async function activity(id: string) {
    const rows = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, id), like(activityLog.action, "share.%")))
      .orderBy(asc(activityLog.createdAt));
    return rows.map((row) => row.action);
  }

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `sr-${backend}`);
    // makeTeam's owner signed up and never confirmed; send-test needs a confirmed address.
    await verifyEmail(database, team.owner.email);
    other = await makeTeam(database, `sro-${backend}`);
    pageId = await insertMonitor(database, team.organizationId, {
      url: "https://blog.example/guest-post",
      tags: ["client acme"],
      lastCheckedAt: new Date(now - HOUR),
    });
    // Links of the tag, whose history the report tells: one steady, one lost and one restored in the
    // last hours (inside any report period ending from now on), one never checked.
    await insertLinkWithHistory(database, team.organizationId, pageId, at(40), [{ at: at(30), to: "live" }], {
      target: "https://mine.example/steady",
      verdict: { value: "counts", reasons: [] },
    });
    const lost = await insertLinkWithHistory(
      database,
      team.organizationId,
      pageId,
      at(40),
      [
        { at: at(30), to: "live" },
        { at: new Date(now - 3 * HOUR), to: "missing" },
      ],
      { target: "https://mine.example/lost", verdict: { value: "does_not_count", reasons: ["missing"] } },
    );
    await database.db.insert(verdictTransition).values({
      id: randomUUID(),
      organizationId: team.organizationId,
      trackedLinkId: lost,
      fromValue: "counts",
      toValue: "does_not_count",
      createdAt: new Date(now - 3 * HOUR),
    });
    await insertLinkWithHistory(
      database,
      team.organizationId,
      pageId,
      at(40),
      [
        { at: at(30), to: "live" },
        { at: at(20), to: "missing" },
        { at: new Date(now - 2 * HOUR), to: "live" },
      ],
      { target: "https://mine.example/back", verdict: { value: "counts", reasons: [] }, notes: "SECRET NOTE" },
    );
    await insertLinkWithHistory(database, team.organizationId, pageId, at(2), [], {
      target: "https://mine.example/new",
    });
    const audit = await newShare("An audit", team.admin.cookie, {
      title: "An audit",
      scope: "monitor",
      monitorId: pageId,
    });
    // An audit's share: made straight in the table (the audits suite covers their routes).
    auditShareId = randomUUID();
    await database.db.insert(share).values({
      id: auditShareId,
      organizationId: team.organizationId,
      title: "Saved audit",
      scope: "audit",
      tokenHash: randomUUID(),
      createdByEmail: team.admin.email,
    });
    expect(audit.schedule).toBeNull();
    const theirPage = await insertMonitor(database, other.organizationId, { tags: ["theirs"] });
    theirShareId = (
      await newShare("Theirs", other.owner.cookie, { title: "Theirs", scope: "monitor", monitorId: theirPage })
    ).id;
  });

  describe("guard", () => {
    let guarded = "";
    beforeAll(async () => {
      guarded = (await newShare("Guarded")).id;
      await scheduled(guarded, weekly(["guard@client.example"]));
    });
    const ROUTES: RouteCase[] = [
      {
        name: "PUT /shares/{id}/schedule",
        handler: putSchedule,
        method: "PUT",
        path: "/x",
        minRole: "admin",
        params: () => ({ id: guarded }),
        body: () => weekly(["guard@client.example"]),
      },
      {
        name: "POST /shares/{id}/send-test",
        handler: sendTest,
        method: "POST",
        path: "/x",
        minRole: "admin",
        params: () => ({ id: guarded }),
      },
      // Removing an absent schedule is a 204 again, so each allowed role can remove it.
      {
        name: "DELETE /shares/{id}/schedule",
        handler: removeScheduleRoute,
        method: "DELETE",
        path: "/x",
        minRole: "admin",
        params: () => ({ id: guarded }),
      },
    ];
    itChecksGuardOrder(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
  });

  describe("PUT /api/account/shares/{id}/schedule", () => {
    it("answers the Share with its schedule; every Share answer carries `schedule` (null without one)", async () => {
      const created = await newShare("Weekly for Acme");
      expect(created.schedule).toBeNull();
      const before = Date.now();
      const answer = await scheduled(
        created.id,
        weekly(["  Client@Acme.example ", "boss@acme.example"], { weekday: 3, hourUtc: 7 }),
      );
      expect(Object.keys(answer)).toContain("schedule");
      expect(answer.schedule).toEqual({
        cadence: "weekly",
        weekday: 3,
        dayOfMonth: null,
        hourUtc: 7,
        recipients: [
          { email: "boss@acme.example", status: "pending" },
          { email: "client@acme.example", status: "pending" },
        ],
        nextSendAt: expect.any(String),
        lastSentAt: null,
      });
      const next = new Date(answer.schedule?.nextSendAt ?? "");
      expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([3, 7, 0]);
      expect(next.getTime()).toBeGreaterThan(before);
      expect(next.getTime() - before).toBeLessThanOrEqual(7 * DAY);
      const list = await call(listShares, "GET", "/api/account/shares?limit=100", { cookie: team.viewer.cookie });
      const items = (list.json as { items: Share[] }).items;
      expect(items.find((item) => item.id === created.id)?.schedule).toEqual(answer.schedule);
      expect(items.filter((item) => item.schedule === null).length).toBeGreaterThan(0);
      for (const item of items) expect(Object.keys(item).at(-1)).toBe("schedule");
    });

    it("a monthly schedule goes out on its day of the month", async () => {
      const created = await newShare("Monthly for Acme");
      const answer = await scheduled(created.id, {
        cadence: "monthly",
        dayOfMonth: 28,
        hourUtc: 23,
        recipients: ["monthly@acme.example"],
      });
      const next = new Date(answer.schedule?.nextSendAt ?? "");
      expect([next.getUTCDate(), next.getUTCHours()]).toEqual([28, 23]);
      expect(answer.schedule).toMatchObject({ cadence: "monthly", weekday: null, dayOfMonth: 28 });
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ["no cadence", { weekday: 1, hourUtc: 9, recipients: ["a@b.example"] }, /cadence/],
      ["a daily cadence", { cadence: "daily", hourUtc: 9, recipients: ["a@b.example"] }, /cadence/],
      ["weekly without weekday", { cadence: "weekly", hourUtc: 9, recipients: ["a@b.example"] }, /weekday/],
      ["weekly with a dayOfMonth", weekly(["a@b.example"], { dayOfMonth: 3 }), /dayOfMonth/],
      ["monthly without dayOfMonth", { cadence: "monthly", hourUtc: 9, recipients: ["a@b.example"] }, /dayOfMonth/],
      [
        "monthly with a weekday",
        { cadence: "monthly", dayOfMonth: 1, weekday: 1, hourUtc: 9, recipients: ["a@b.example"] },
        /weekday/,
      ],
      ["weekday 7", weekly(["a@b.example"], { weekday: 7 }), /weekday/],
      ["weekday -1", weekly(["a@b.example"], { weekday: -1 }), /weekday/],
      ["weekday 1.5", weekly(["a@b.example"], { weekday: 1.5 }), /weekday/],
      ["dayOfMonth 29", { cadence: "monthly", dayOfMonth: 29, hourUtc: 9, recipients: ["a@b.example"] }, /dayOfMonth/],
      ["dayOfMonth 0", { cadence: "monthly", dayOfMonth: 0, hourUtc: 9, recipients: ["a@b.example"] }, /dayOfMonth/],
      ["hourUtc 24", weekly(["a@b.example"], { hourUtc: 24 }), /hourUtc/],
      ["hourUtc -1", weekly(["a@b.example"], { hourUtc: -1 }), /hourUtc/],
      ["hourUtc as text", weekly(["a@b.example"], { hourUtc: "9" }), /hourUtc/],
      ["no hourUtc", { cadence: "weekly", weekday: 1, recipients: ["a@b.example"] }, /hourUtc/],
      ["no recipients", { cadence: "weekly", weekday: 1, hourUtc: 9 }, /recipients/],
      ["an empty list", weekly([]), /recipients/],
      [
        "eleven addresses",
        weekly(Array.from({ length: 11 }, (_, index) => `r${index}@b.example`)),
        /recipients: at most 10/,
      ],
      ["not an address", weekly(["not-an-address"]), /recipients\.0/],
      ["an address with a line break", weekly(["a@b.example\nBcc: c@d.example"]), /recipients\.0/],
      ["an address twice (case aside)", weekly(["a@b.example", "A@B.example"]), /recipients\.1.*twice/],
      ["an unknown field", weekly(["a@b.example"], { timezone: "Europe/Paris" }), /timezone/],
    ])("%s is 400 INVALID_REQUEST naming the field", async (_name, body, field) => {
      const target = (await newShare(`Invalid ${_name}`)).id;
      const result = await put(target, body);
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(field);
      expect(await scheduleRow(target)).toBeUndefined();
    });

    it("a revoked share, an expired one and an audit's refuse a schedule: 409 CONFLICT", async () => {
      const revoked = (await newShare("Revoked")).id;
      expect(
        (await call(revokeShare, "DELETE", "/x", { cookie: team.admin.cookie, params: { id: revoked } })).status,
      ).toBe(204);
      const refused = await put(revoked, weekly(["a@b.example"]));
      expectError(refused, 409, "CONFLICT");
      expect(String(refused.json?.error)).toMatch(/revoked/);
      const expired = (await newShare("Expiring")).id;
      await database.db
        .update(share)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(share.id, expired));
      expectError(await put(expired, weekly(["a@b.example"])), 409, "CONFLICT");
      const audit = await put(auditShareId, weekly(["a@b.example"]));
      expectError(audit, 409, "CONFLICT");
      expect(String(audit.json?.error)).toMatch(/audit/);
      for (const id of [revoked, expired, auditShareId]) expect(await scheduleRow(id)).toBeUndefined();
      expect(await emailsAbout(revoked)).toEqual([]);
    });

    it("another organization's share id, or an unknown one, is 404 (PUT, DELETE, send-test) and changes nothing", async () => {
      for (const id of [theirShareId, "no-such-share"]) {
        expectError(await put(id, weekly(["a@b.example"])), 404, "NOT_FOUND");
        expectError(await put(id, { cadence: "hourly" }), 404, "NOT_FOUND");
        expectError(
          await call(removeScheduleRoute, "DELETE", "/x", { cookie: team.owner.cookie, params: { id } }),
          404,
          "NOT_FOUND",
        );
        expectError(
          await call(sendTest, "POST", "/x", { cookie: team.owner.cookie, params: { id } }),
          404,
          "NOT_FOUND",
        );
      }
      expect(await scheduleRow(theirShareId)).toBeUndefined();
    });
  });

  describe("consent first", () => {
    it("each address added gets one confirmation email; saving again asks nobody twice; a removed address is gone", async () => {
      const id = (await newShare("Consent")).id;
      await scheduled(id, weekly(["one@client.example", "two@client.example"]));
      const asked = await emailsAbout(id, "report_consent");
      expect(asked.map((row) => row.recipient)).toEqual(["one@client.example", "two@client.example"]);
      const [first] = asked;
      expect(first?.subject).toBe(`sr-${backend}-owner's team wants to send you a weekly link report — confirm`);
      expect(first?.text).toContain("every Monday at 09:00 UTC");
      expect(first?.text).toContain("Nothing is sent until you confirm");
      // Saved again with a new hour and a third address: only the new address is asked.
      const answer = await scheduled(
        id,
        weekly(["one@client.example", "two@client.example", "three@client.example"], { hourUtc: 10 }),
      );
      expect((await emailsAbout(id, "report_consent")).map((row) => row.recipient)).toEqual([
        "one@client.example",
        "two@client.example",
        "three@client.example",
      ]);
      expect(answer.schedule?.hourUtc).toBe(10);
      // Removing an address removes it (and what waited for it in the outbox).
      const trimmed = await scheduled(id, weekly(["one@client.example"], { hourUtc: 10 }));
      expect(trimmed.schedule?.recipients).toEqual([{ email: "one@client.example", status: "pending" }]);
      const dropped = (await emailsAbout(id, "report_consent")).filter((row) => row.status === "dropped");
      expect(dropped.map((row) => row.recipient).sort()).toEqual(["three@client.example", "two@client.example"]);
      expect(await activity(id)).toEqual([
        "share.created",
        "share.schedule_set",
        "share.schedule_set",
        "share.schedule_set",
      ]);
    });

    it("opening the link changes nothing; confirming works once; an expired link confirms nothing and a new save asks again", async () => {
      const id = (await newShare("Confirm once")).id;
      await scheduled(id, weekly(["late@client.example", "prompt@client.example"]));
      const token = await confirmTokenOf(id, "prompt@client.example");
      const view = await consentStatus(token, runtime());
      expect(view).toEqual({
        state: "ready",
        email: "prompt@client.example",
        organizationName: `sr-${backend}-owner's team`,
        reportTitle: "Confirm once",
        when: "every Monday at 09:00 UTC",
      });
      await consentStatus(token, runtime());
      const [pending] = await database.db
        .select()
        .from(reportRecipient)
        .where(and(eq(reportRecipient.shareId, id), eq(reportRecipient.email, "prompt@client.example")));
      expect(pending?.status).toBe("pending");
      expect(JSON.stringify(pending)).not.toContain(token);
      expect((await confirmFromToken(token, runtime())).state).toBe("confirmed");
      expect((await confirmFromToken(token, runtime())).state).toBe("confirmed");
      expect(await activity(id)).toEqual(["share.created", "share.schedule_set", "share.recipient_confirmed"]);

      // Eight days later the other link has expired: it confirms nothing.
      const late = await confirmTokenOf(id, "late@client.example");
      const later = runtime(new Date(Date.now() + 8 * DAY));
      expect((await consentStatus(late, later)).state).toBe("expired");
      expect((await confirmFromToken(late, later)).state).toBe("expired");
      expect((await consentStatus(late, runtime())).state).toBe("ready");
      // Saving the schedule with it again, once expired, sends a new link; the old one stops working.
      await database.db
        .update(reportRecipient)
        .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(reportRecipient.email, "late@client.example"));
      await scheduled(id, weekly(["late@client.example", "prompt@client.example"]));
      const fresh = await confirmTokenOf(id, "late@client.example");
      expect(fresh).not.toBe(late);
      await expect(consentStatus(late, runtime())).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect((await confirmFromToken(fresh, runtime())).state).toBe("confirmed");
      // The confirmed address was not asked again.
      expect(
        (await emailsAbout(id, "report_consent")).filter((row) => row.recipient === "prompt@client.example"),
      ).toHaveLength(1);
    });

    it.each([
      ["no token", null],
      ["a malformed token", "not-a-token"],
      ["an unknown token", "A".repeat(32)],
    ])("%s names nothing (an error for the page to show)", async (_name, token) => {
      await expect(consentStatus(token, runtime())).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(confirmFromToken(token, runtime())).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("the confirmation form's POST confirms (303 back to the page); a bad token changes nothing and is no error", async () => {
      const id = (await newShare("Form")).id;
      await scheduled(id, weekly(["form@client.example"]));
      const token = await confirmTokenOf(id, "form@client.example");
      const form = (body: string) =>
        confirmForm(
          new Request("http://localhost:3000/report-emails/confirm/submit", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body,
          }),
        );
      const bad = await form("token=nothing");
      expect(bad.status).toBe(303);
      const response = await form(new URLSearchParams({ token }).toString());
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/report-emails/confirm?token=${token}`);
      expect((await consentStatus(token, runtime())).state).toBe("confirmed");
    });
  });

  describe("sending at nextSendAt", () => {
    let id = "";
    let due: Date;
    const recipients = ["ann@client.example", "bob@client.example", "cy@client.example"];

    beforeAll(async () => {
      id = (await newShare("Acme: spring placements")).id;
      await database.db
        .update(share)
        .set({ expiresAt: new Date(Date.now() + 400 * DAY) })
        .where(eq(share.id, id));
      const answer = await scheduled(id, soon(recipients));
      due = new Date(answer.schedule?.nextSendAt ?? "");
      expect(due.getTime() - Date.now()).toBeLessThanOrEqual(HOUR);
      // Two confirm; the third never does.
      await confirmAll(id, recipients.slice(0, 2));
    });

    it("nothing before the time; at it, one email per confirmed recipient with the PDF, and the schedule moves a week on", async () => {
      await onlySchedule(id);
      expect(await tick(new Date(due.getTime() - 1))).toBe(0);
      expect(await emailsAbout(id, "report")).toEqual([]);
      const printed = prints;
      const at = new Date(due.getTime() + 1500);
      expect(await tick(at)).toBe(1);
      expect(prints - printed).toBe(1);
      const sent = await emailsAbout(id, "report");
      expect(sent.map((row) => row.recipient)).toEqual(recipients.slice(0, 2));
      expect(new Set(sent.map((row) => row.attachmentId)).size).toBe(1);
      expect(sent[0]?.subject).toBe(`Acme: spring placements — weekly link report from sr-${backend}-owner's team`);
      expect(sent[0]?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(sent[0]?.headers?.["List-Unsubscribe"]).toMatch(
        /^<https?:\/\/[^>]+\/api\/report-emails\/unsubscribe\?token=[\w-]+\.[\w-]+>$/,
      );
      expect(sent[0]?.headers?.["List-Unsubscribe"]).not.toBe(sent[1]?.headers?.["List-Unsubscribe"]);
      const row = await scheduleRow(id);
      expect(row?.lastSentAt?.toISOString()).toBe(at.toISOString());
      expect(row?.nextSendAt.toISOString()).toBe(new Date(due.getTime() + 7 * DAY).toISOString());
      expect(row?.claimedUntil).toBeNull();
      // The same tick again, or later that hour: nothing more.
      expect(await tick(at)).toBe(0);
      expect(await tick(new Date(at.getTime() + HOUR))).toBe(0);
      expect(await emailsAbout(id, "report")).toHaveLength(2);
    });

    it("the email says the period, the counts, what changed and the share link, which opens the report", async () => {
      const [mail] = await emailsAbout(id, "report");
      const text = mail?.text ?? "";
      for (const words of [
        "Weekly link report: Acme: spring placements",
        "tag “client acme”",
        "4 tracked links in this report.",
        "By state: 2 live, 1 missing, 1 pending.",
        "By verdict: 2 count, 1 doesn't count, 1 without a verdict yet.",
        "What changed in the last week:",
        "Lost (1):",
        "- https://mine.example/lost on https://blog.example/guest-post: now missing",
        "Restored (1):",
        "- https://mine.example/back on https://blog.example/guest-post: now live",
        "Verdict changes (1):",
        "- https://mine.example/lost on https://blog.example/guest-post: Counts → Doesn't count (Link no longer on the page)",
        "You get this report because an admin of",
        "ann@client.example and you confirmed.",
      ])
        expect(text).toContain(words);
      expect(text).not.toContain("SECRET NOTE");
      const reportUrl = /https?:\/\/\S+\/r\/([A-Za-z0-9_-]{32})/.exec(text);
      expect(reportUrl).not.toBeNull();
      const opened = await openShare(runtime(), reportUrl?.[1] ?? "");
      expect(opened?.share.id).toBe(id);
      // Not the share's own token, and not stored: the share keeps its SHA-256 only.
      const [row] = await database.db.select().from(share).where(eq(share.id, id));
      expect(JSON.stringify(row)).not.toContain(reportUrl?.[1]);
      expect(row?.reportLinkHash).toBe(
        createHash("sha256")
          .update(reportUrl?.[1] ?? "")
          .digest("hex"),
      );
      expect(row?.reportLinkHash).not.toBe(row?.tokenHash);
      // Every recipient's email, and every report of the share, carries the same link.
      for (const other of await emailsAbout(id, "report")) expect(other.text).toContain(`/r/${reportUrl?.[1]}`);
    });

    it("through a real SMTP server: the PDF attachment reads back with pdftotext, and the List-Unsubscribe headers are there", async () => {
      const smtp = await startSmtpServer();
      try {
        await deliverDue({
          db: database.db,
          transport: smtpTransport(smtp.url),
          from: "LinkLens <reports@linklens.test>",
          batchSize: 100,
        });
        const mail = smtp.received.find(
          (received) =>
            received.subject?.startsWith("Acme: spring placements") &&
            received.to &&
            "text" in received.to &&
            received.to.text === "ann@client.example",
        );
        expect(mail).toBeDefined();
        const raw = (key: string) =>
          mail?.headerLines.find((line) => line.key === key)?.line.replace(/\r\n[ \t]+/g, " ");
        expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        expect(raw("list-unsubscribe")).toMatch(
          /^List-Unsubscribe: <https?:\/\/\S+\/api\/report-emails\/unsubscribe\?token=\S+>$/,
        );
        expect(mail?.html).toContain("Unsubscribe</a>");
        const [pdf] = mail?.attachments ?? [];
        expect(pdf?.contentType).toBe("application/pdf");
        expect(pdf?.filename).toMatch(/^linklens-report-acme-spring-placements-\d{4}-\d{2}-\d{2}\.pdf$/);
        const text = pdfText(pdf?.content as Buffer, "raw").replace(/\s+/g, " ");
        for (const words of [
          `sr-${backend}-owner's team`,
          "Acme: spring placements",
          "Weekly link report",
          "By state: 2 live, 1 missing, 1 pending.",
          "Lost (1)",
          "Restored (1)",
          "Tracked links by state at the end of each day",
          "https://mine.example/steady",
          "https://mine.example/lost",
          "https://mine.example/back",
          "https://mine.example/new",
          "Doesn't count",
          "Link no longer on the page",
          "No verdict yet",
          "https://blog.example/guest-post",
        ])
          expect(text).toContain(words);
        expect(text).not.toContain("SECRET NOTE");
      } finally {
        await smtp.stop();
      }
      // Sent, the PDF is no longer kept once its hour is up.
      expect(await pruneAttachments(database.db, new Date(Date.now() + 2 * HOUR))).toBeGreaterThan(0);
      const [mail] = await emailsAbout(id, "report");
      expect(mail?.attachmentId).toBeNull();
    });

    it("two ticks at once (two instances) make the report once", async () => {
      await onlySchedule(id);
      const row = await scheduleRow(id);
      const next = row?.nextSendAt as Date;
      const printed = prints;
      const results = await Promise.all([tick(new Date(next.getTime() + 10)), tick(new Date(next.getTime() + 20))]);
      expect(results.sort()).toEqual([0, 1]);
      expect(prints - printed).toBe(1);
      expect(await emailsAbout(id, "report")).toHaveLength(4);
      // The second report covers the time since the first.
      const second = (await emailsAbout(id, "report")).at(-1);
      expect(second?.text).toContain("What changed since the last report:");
    });

    it("a claim held by an instance that died is taken over once it runs out, and the report goes once", async () => {
      await onlySchedule(id);
      const row = await scheduleRow(id);
      const next = row?.nextSendAt as Date;
      // Another instance claimed it and died before its transaction.
      await database.db
        .update(reportSchedule)
        .set({ claimedUntil: new Date(next.getTime() + CLAIM_MS) })
        .where(eq(reportSchedule.shareId, id));
      expect(await tick(new Date(next.getTime() + 1000))).toBe(0);
      expect(await tick(new Date(next.getTime() + CLAIM_MS + 1000))).toBe(1);
      expect(await emailsAbout(id, "report")).toHaveLength(6);
    });

    it("a send missed while down goes out once at the next tick, not once per missed week", async () => {
      await onlySchedule(id);
      const row = await scheduleRow(id);
      const next = row?.nextSendAt as Date;
      const late = new Date(next.getTime() + 3 * 7 * DAY + 5 * HOUR);
      expect(await tick(late)).toBe(1);
      expect(await tick(late)).toBe(0);
      expect(await emailsAbout(id, "report")).toHaveLength(8);
      const moved = await scheduleRow(id);
      expect(moved?.nextSendAt.toISOString()).toBe(new Date(next.getTime() + 4 * 7 * DAY).toISOString());
      expect(moved?.lastSentAt?.toISOString()).toBe(late.toISOString());
    });

    it("an unsubscribed address gets nothing more: the one-click POST, what waits in the outbox dropped", async () => {
      await onlySchedule(id);
      const row = await scheduleRow(id);
      const next = row?.nextSendAt as Date;
      // A report waits in the outbox (the mail server is down, say) when Bob unsubscribes.
      expect(await tick(next)).toBe(1);
      const waiting = (await emailsAbout(id, "report")).slice(-2);
      expect(waiting.map((mail) => [mail.recipient, mail.status])).toEqual([
        ["ann@client.example", "pending"],
        ["bob@client.example", "pending"],
      ]);
      const bob = waiting.find((mail) => mail.recipient === "bob@client.example");
      const target = /^<(.+)>$/.exec(bob?.headers?.["List-Unsubscribe"] ?? "")?.[1] ?? "";
      const url = new URL(target);
      expect((await oneClickGet(new Request(url, { method: "GET" }))).status).toBe(405);
      const response = await oneClick(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        unsubscribed: true,
        email: "bob@client.example",
        report: "Acme: spring placements",
      });
      // Every report still waiting for Bob is dropped; Ann's stay.
      const after = await emailsAbout(id, "report");
      expect(after.find((mail) => mail.id === bob?.id)?.status).toBe("dropped");
      expect(
        after.filter((mail) => mail.status === "pending").every((mail) => mail.recipient === "ann@client.example"),
      ).toBe(true);
      expect(
        after.filter((mail) => mail.recipient === "bob@client.example").every((mail) => mail.status !== "pending"),
      ).toBe(true);
      // The next report goes to Ann only.
      const following = (await scheduleRow(id))?.nextSendAt as Date;
      expect(await tick(following)).toBe(1);
      expect((await emailsAbout(id, "report")).slice(-1).map((mail) => mail.recipient)).toEqual(["ann@client.example"]);
      const listed = (await call(listShares, "GET", "/api/account/shares?limit=100", { cookie: team.viewer.cookie }))
        .json as { items: Share[] };
      expect(listed.items.find((item) => item.id === id)?.schedule?.recipients).toEqual([
        { email: "ann@client.example", status: "confirmed" },
        { email: "bob@client.example", status: "unsubscribed" },
        { email: "cy@client.example", status: "pending" },
      ]);
      expect(await activity(id)).toContain("share.recipient_unsubscribed");
    });

    it("unsubscribing twice, the page and the form say so and change nothing more; a bad token is 400", async () => {
      const bobLink = new URL(
        configuredReportLinks(getConfig()).unsubscribe({ shareId: id, email: "bob@client.example" }),
      );
      const token = bobLink.searchParams.get("token");
      expect(await unsubscribeStatus(token, runtime())).toEqual({
        email: "bob@client.example",
        organizationName: `sr-${backend}-owner's team`,
        reportTitle: "Acme: spring placements",
        subscribed: false,
      });
      const before = (await activity(id)).length;
      expect((await unsubscribeFromToken(token, runtime())).subscribed).toBe(false);
      expect((await activity(id)).length).toBe(before);
      const annToken = new URL(
        configuredReportLinks(getConfig()).unsubscribe({ shareId: id, email: "ann@client.example" }),
      ).searchParams.get("token");
      expect((await unsubscribeStatus(annToken, runtime())).subscribed).toBe(true);
      const form = await unsubscribeForm(
        new Request("http://localhost:3000/report-emails/unsubscribe/submit", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: annToken ?? "" }).toString(),
        }),
      );
      expect(form.status).toBe(303);
      expect((await unsubscribeStatus(annToken, runtime())).subscribed).toBe(false);
      const bad = await oneClick(
        new Request(`http://localhost:3000/api/report-emails/unsubscribe?token=${token}x`, { method: "POST" }),
      );
      expectError(
        { status: bad.status, json: await bad.json(), headers: bad.headers, text: "" },
        400,
        "INVALID_REQUEST",
      );
    });

    it("re-adding an unsubscribed address needs new consent: removed and added anew, it is pending and asked again", async () => {
      await onlySchedule(id);
      // Saved with Bob still listed: he stays unsubscribed and is not asked.
      const kept = await scheduled(id, weekly(recipients));
      expect(kept.schedule?.recipients.find((r) => r.email === "bob@client.example")?.status).toBe("unsubscribed");
      const asked = () =>
        emailsAbout(id, "report_consent").then((rows) => rows.filter((r) => r.recipient === "bob@client.example"));
      expect(await asked()).toHaveLength(1);
      await scheduled(id, weekly(["cy@client.example"]));
      const again = await scheduled(id, weekly(["bob@client.example", "cy@client.example"]));
      expect(again.schedule?.recipients.find((r) => r.email === "bob@client.example")?.status).toBe("pending");
      expect(await asked()).toHaveLength(2);
      // Pending, Bob gets no report; once he confirms anew, he does.
      const next = (await scheduleRow(id))?.nextSendAt as Date;
      expect(await tick(next)).toBe(0);
      await confirmAll(id, ["bob@client.example"]);
      const following = (await scheduleRow(id))?.nextSendAt as Date;
      expect(await tick(following)).toBe(1);
      expect((await emailsAbout(id, "report")).slice(-1).map((mail) => mail.recipient)).toEqual(["bob@client.example"]);
    });
  });

  describe("revoked and expired shares send nothing", () => {
    it("revoking removes the schedule and drops the report still waiting; the emailed link stops opening the report", async () => {
      const id = (await newShare("To revoke")).id;
      await onlySchedule(id);
      const answer = await scheduled(id, weekly(["rev@client.example"]));
      await confirmAll(id, ["rev@client.example"]);
      const due = new Date(answer.schedule?.nextSendAt ?? "");
      expect(await tick(due)).toBe(1);
      const [waiting] = await emailsAbout(id, "report");
      expect(waiting?.status).toBe("pending");
      const token = /\/r\/([A-Za-z0-9_-]{32})/.exec(waiting?.text ?? "")?.[1] ?? "";
      expect(await openShare(runtime(), token)).not.toBeNull();
      const revoked = await call(revokeShare, "DELETE", "/x", { cookie: team.admin.cookie, params: { id } });
      expect(revoked.status).toBe(204);
      expect(await scheduleRow(id)).toBeUndefined();
      expect((await emailsAbout(id, "report"))[0]?.status).toBe("dropped");
      expect(await openShare(runtime(), token)).toBeNull();
      expect(await tick(new Date(due.getTime() + 7 * DAY))).toBe(0);
      expect(await activity(id)).toEqual([
        "share.created",
        "share.schedule_set",
        "share.recipient_confirmed",
        "share.revoked",
        "share.schedule_removed",
      ]);
    });

    it("an expired share's schedule is removed at the next tick, with nothing sent, and logged once", async () => {
      const id = (await newShare("To expire")).id;
      await onlySchedule(id);
      const answer = await scheduled(id, weekly(["exp@client.example"]));
      await confirmAll(id, ["exp@client.example"]);
      const due = new Date(answer.schedule?.nextSendAt ?? "");
      await database.db
        .update(share)
        .set({ expiresAt: new Date(due.getTime() - 1000) })
        .where(eq(share.id, id));
      await Promise.all([tick(due), tick(due)]);
      expect(await scheduleRow(id)).toBeUndefined();
      expect(await emailsAbout(id, "report")).toEqual([]);
      const removed = await database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.targetId, id), eq(activityLog.action, "share.schedule_removed")));
      expect(removed).toHaveLength(1);
      expect(removed[0]?.details).toMatchObject({ reason: "expired" });
      expect(removed[0]?.actorEmail).toBeNull();
    });

    it("DELETE removes the schedule and its recipients (204), logs it, and drops what waits; again: 204, nothing logged", async () => {
      const id = (await newShare("To unschedule")).id;
      await scheduled(id, weekly(["gone@client.example"]));
      const removed = await call(removeScheduleRoute, "DELETE", "/x", { cookie: team.owner.cookie, params: { id } });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe("");
      expect(await scheduleRow(id)).toBeUndefined();
      expect(await database.db.select().from(reportRecipient).where(eq(reportRecipient.shareId, id))).toEqual([]);
      expect((await emailsAbout(id, "report_consent"))[0]?.status).toBe("dropped");
      expect(
        (await call(removeScheduleRoute, "DELETE", "/x", { cookie: team.admin.cookie, params: { id } })).status,
      ).toBe(204);
      expect(await activity(id)).toEqual(["share.created", "share.schedule_set", "share.schedule_removed"]);
      const listed = (await call(listShares, "GET", "/api/account/shares?limit=100", { cookie: team.viewer.cookie }))
        .json as { items: Share[] };
      expect(listed.items.find((item) => item.id === id)?.schedule).toBeNull();
    });
  });

  describe("POST /api/account/shares/{id}/send-test", () => {
    it("sends the same email, PDF attached, now and to the caller only; the schedule does not move", async () => {
      const id = (await newShare("Tested")).id;
      const answer = await scheduled(id, weekly(["client@tested.example"]));
      const result = await call(sendTest, "POST", "/x", { cookie: team.owner.cookie, params: { id } });
      expect(result.status, result.text).toBe(200);
      expect(result.json).toEqual({
        to: team.owner.email,
        subject: `[Test] Tested — weekly link report from sr-${backend}-owner's team`,
      });
      const mails = await emailsAbout(id, "report");
      expect(mails.map((mail) => mail.recipient)).toEqual([team.owner.email]);
      expect(mails[0]?.attachmentId).toEqual(expect.any(String));
      expect(mails[0]?.text).toContain("This is a test");
      expect(mails[0]?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      const [attachment] = await database.db
        .select()
        .from(emailAttachment)
        .where(eq(emailAttachment.id, mails[0]?.attachmentId ?? ""));
      expect(pdfText(Buffer.from(attachment?.content ?? []), "raw").replace(/\s+/g, " ")).toContain("Tested");
      expect((await scheduleRow(id))?.nextSendAt.toISOString()).toBe(answer.schedule?.nextSendAt);
      expect((await scheduleRow(id))?.lastSentAt).toBeNull();
      expect(await activity(id)).toEqual(["share.created", "share.schedule_set", "share.test_sent"]);
    });

    it("409 without a schedule, for a revoked share, and for a caller whose address is not confirmed", async () => {
      const bare = (await newShare("Bare")).id;
      const none = await call(sendTest, "POST", "/x", { cookie: team.admin.cookie, params: { id: bare } });
      expectError(none, 409, "CONFLICT");
      expect(String(none.json?.error)).toMatch(/no scheduled report/);
      // Revoking ended its schedule, so a revoked share has nothing to test either.
      const revoked = (await newShare("Revoked test")).id;
      await scheduled(revoked, weekly(["r@client.example"]));
      await call(revokeShare, "DELETE", "/x", { cookie: team.admin.cookie, params: { id: revoked } });
      expectError(
        await call(sendTest, "POST", "/x", { cookie: team.admin.cookie, params: { id: revoked } }),
        409,
        "CONFLICT",
      );
      const solo = await makeSoloOwner(`srs-${backend}`);
      const page = await insertMonitor(database, solo.organizationId, { tags: ["solo"] });
      const theirs = await newShare("Solo", solo.cookie, { title: "Solo", scope: "monitor", monitorId: page });
      expect((await put(theirs.id, weekly(["x@client.example"]), solo.cookie)).status).toBe(200);
      const unconfirmed = await call(sendTest, "POST", "/x", { cookie: solo.cookie, params: { id: theirs.id } });
      expectError(unconfirmed, 409, "CONFLICT");
      expect(String(unconfirmed.json?.error)).toMatch(/not confirmed/);
      expect(await emailsAbout(theirs.id, "report")).toEqual([]);
    });
  });
});
