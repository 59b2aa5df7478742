import { and, asc, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetAuth } from "@/lib/auth";
import { resetAuthLimiters } from "@/lib/auth/limits";
import { openDatabase, setDatabase, type Database } from "@/lib/db";
import { outbox, reportRecipient, reportSchedule } from "@/lib/db/schema";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { pdfText } from "../helpers/pdf-text";
import { startServer, type RunningServer } from "../helpers/server";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { at, insertLinkWithHistory, insertMonitor } from "./account/history-setup";
import { makeTeam, type Team } from "./account/team-setup";

/**
 * Scheduled reports on the production build (`npm run build` first): two instances on one PostgreSQL,
 * both running the scheduler and the email sender, and an SMTP server that refuses everything until the
 * reports are waiting in the outbox (a switch, not a clock). The servers run on the wall clock, so a
 * report is made due by moving its schedule's time into the past, as the scheduler would find it after
 * an outage. Each report reaches each confirmed recipient exactly once per period, the PDF attachment
 * reads back with pdftotext, and the confirmation and unsubscribe pages work without an account: a GET
 * (or HEAD) shows and changes nothing, a POST acts; a used or expired confirmation link confirms nothing;
 * re-adding an address needs its consent anew; the mail client's one-click POST unsubscribes.
 *
 * The team is made in this process on the servers' PostgreSQL (same auth secret), so the test reads the
 * outbox and the recipients straight from the database.
 */

const SECRET = "reports-http-secret-reports-http-secret";
process.env.BETTER_AUTH_SECRET = SECRET;

let postgres: PostgresServer;
let database: Database;
let smtp: TestSmtpServer;
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let team: Team;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  database = openDatabase({ databaseUrl, dataDir: "" });
  await database.migrate();
  setDatabase(database);
  resetAuth();
  resetAuthLimiters();
  team = await makeTeam(database, "rh");
  // Checked next tomorrow (insertMonitor): the schedulers leave the page alone during the test.
  const page = await insertMonitor(database, team.organizationId, {
    url: "https://blog.example/guest-post",
    tags: ["client acme"],
    lastCheckedAt: new Date(Date.now() - 3_600_000),
  });
  await insertLinkWithHistory(database, team.organizationId, page, at(40), [{ at: at(30), to: "live" }], {
    target: "https://mine.example/steady",
    verdict: { value: "counts", reasons: [] },
  });
  await insertLinkWithHistory(
    database,
    team.organizationId,
    page,
    at(40),
    [
      { at: at(30), to: "live" },
      { at: new Date(Date.now() - 7_200_000), to: "missing" },
    ],
    { target: "https://mine.example/lost", verdict: { value: "does_not_count", reasons: ["missing"] } },
  );
  smtp = await startSmtpServer();
  const env = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
    SMTP_URL: smtp.url,
    MAIL_FROM: "LinkLens <reports@linklens.test>",
    // Retries 1 s, 2 s, 4 s … after a refusal, so the test waits seconds, not the production minutes.
    MAIL_RETRY_BASE_SECONDS: "1",
    MONITOR_POLL_SECONDS: "1",
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
}, 300_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp?.stop();
  await database?.close();
  await postgres?.stop();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function request(server: RunningServer, method: string, path: string, cookie?: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    redirect: "manual",
    headers: {
      ...(cookie ? { cookie } : {}),
      origin: server.baseUrl,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** A page's URL on `server` (the emails' links name the instance that wrote them). */
const on = (server: RunningServer, link: string) => {
  const url = new URL(link);
  return `${server.baseUrl}${url.pathname}${url.search}`;
};

const headingOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]?.replace(/&#x27;|&#39;/g, "'") ?? "";

async function consentLink(shareId: string, email: string): Promise<string> {
  const rows = await database.db
    .select({ text: outbox.text })
    .from(outbox)
    .where(and(eq(outbox.about, `share:${shareId}`), eq(outbox.kind, "report_consent"), eq(outbox.recipient, email)))
    .orderBy(asc(outbox.createdAt));
  const link = /https?:\/\/\S+\/report-emails\/confirm\?token=\S+/.exec(rows.at(-1)?.text ?? "")?.[0];
  expect(link).toBeTruthy();
  return link ?? "";
}

async function statusOf(shareId: string, email: string) {
  const [row] = await database.db
    .select({ status: reportRecipient.status })
    .from(reportRecipient)
    .where(and(eq(reportRecipient.shareId, shareId), eq(reportRecipient.email, email)));
  return row?.status ?? null;
}

/** Posts a page's form (what its button sends). */
async function submitForm(server: RunningServer, action: string, token: string) {
  return fetch(`${server.baseUrl}${action}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ token }).toString(),
  });
}

const reportsTo = (email: string) =>
  smtp.received.filter(
    (mail: ParsedMail) =>
      mail.subject?.startsWith("Acme: spring placements —") && mail.to && "text" in mail.to && mail.to.text === email,
  );

describe("scheduled reports on two production instances", () => {
  let shareId = "";
  const ann = "ann@client.example";
  const bob = "bob@client.example";

  /**
   * The report emails of the share, sorted by recipient, once the due report is done: the schedule has moved
   * past now with no claim left (no instance makes that report again, and one whose making was under way
   * writes nothing: its due time is gone) and every email is delivered. A state to wait for, not a pause.
   */
  const settledReports = (what: string) =>
    until(what, async () => {
      const [schedule] = await database.db.select().from(reportSchedule).where(eq(reportSchedule.shareId, shareId));
      if (!schedule || schedule.nextSendAt.getTime() <= Date.now() || schedule.claimedUntil !== null) return undefined;
      const rows = await database.db
        .select({ recipient: outbox.recipient, status: outbox.status })
        .from(outbox)
        .where(and(eq(outbox.about, `share:${shareId}`), eq(outbox.kind, "report")));
      return rows.every((row) => row.status === "sent") ? rows.map((row) => row.recipient).sort() : undefined;
    });

  it(
    "the confirmation page works without an account: a GET shows and changes nothing, the form confirms, once",
    {
      timeout: 120_000,
    },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      const created = await request(a, "POST", "/api/account/shares", team.admin.cookie, {
        title: "Acme: spring placements",
        scope: "tag",
        tag: "client acme",
      });
      expect(created.status, created.text).toBe(201);
      shareId = (JSON.parse(created.text) as { id: string }).id;
      const scheduled = await request(b, "PUT", `/api/account/shares/${shareId}/schedule`, team.admin.cookie, {
        cadence: "weekly",
        weekday: 1,
        hourUtc: 9,
        recipients: [ann, bob],
      });
      expect(scheduled.status, scheduled.text).toBe(200);

      const link = on(a, await consentLink(shareId, ann));
      for (const method of ["GET", "HEAD", "GET"]) {
        const opened = await fetch(link, { method, redirect: "manual" });
        expect(opened.status).toBe(200);
        if (method === "GET") {
          const html = await opened.text();
          expect(headingOf(html)).toBe("Confirm the link reports?");
          expect(html).toContain('action="/report-emails/confirm/submit"');
          expect(html).toContain("every Monday at 09:00 UTC");
          expect(opened.headers.get("cache-control")).toMatch(/no-store|no-cache|private/);
        }
      }
      expect(await statusOf(shareId, ann)).toBe("pending");
      const token = new URL(link).searchParams.get("token") ?? "";
      const posted = await submitForm(b, "/report-emails/confirm/submit", token);
      expect(posted.status).toBe(303);
      expect(posted.headers.get("location")).toBe(`/report-emails/confirm?token=${token}`);
      expect(await statusOf(shareId, ann)).toBe("confirmed");
      const after = await (await fetch(link)).text();
      expect(headingOf(after)).toBe("Reports confirmed");
      expect(after).not.toContain("<form");

      // Used once: posting it again changes nothing, even after an unsubscribe.
      await database.db
        .update(reportRecipient)
        .set({ status: "unsubscribed" })
        .where(and(eq(reportRecipient.shareId, shareId), eq(reportRecipient.email, ann)));
      expect((await submitForm(a, "/report-emails/confirm/submit", token)).status).toBe(303);
      expect(await statusOf(shareId, ann)).toBe("unsubscribed");
      expect(headingOf(await (await fetch(link)).text())).toBe("You unsubscribed");
      await database.db
        .update(reportRecipient)
        .set({ status: "confirmed" })
        .where(and(eq(reportRecipient.shareId, shareId), eq(reportRecipient.email, ann)));

      const garbage = await fetch(`${a.baseUrl}/report-emails/confirm?token=not-a-token`);
      expect(headingOf(await garbage.text())).toBe("This link did not work");
    },
  );

  it(
    "an expired confirmation link confirms nothing; re-adding the address asks anew and its new link works",
    {
      timeout: 120_000,
    },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      await database.db
        .update(reportRecipient)
        .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(reportRecipient.shareId, shareId), eq(reportRecipient.email, bob)));
      const expired = on(b, await consentLink(shareId, bob));
      const page = await (await fetch(expired)).text();
      expect(headingOf(page)).toBe("This link has expired");
      expect(page).not.toContain("<form");
      await submitForm(b, "/report-emails/confirm/submit", new URL(expired).searchParams.get("token") ?? "");
      expect(await statusOf(shareId, bob)).toBe("pending");

      // Removed and added anew: a new confirmation email, whose link confirms.
      const schedule = { cadence: "weekly", weekday: 1, hourUtc: 9 };
      expect(
        (
          await request(a, "PUT", `/api/account/shares/${shareId}/schedule`, team.owner.cookie, {
            ...schedule,
            recipients: [ann],
          })
        ).status,
      ).toBe(200);
      expect(await statusOf(shareId, bob)).toBeNull();
      expect(
        (
          await request(a, "PUT", `/api/account/shares/${shareId}/schedule`, team.owner.cookie, {
            ...schedule,
            recipients: [ann, bob],
          })
        ).status,
      ).toBe(200);
      const fresh = on(a, await consentLink(shareId, bob));
      expect(fresh).not.toBe(expired);
      expect(headingOf(await (await fetch(fresh)).text())).toBe("Confirm the link reports?");
      await submitForm(a, "/report-emails/confirm/submit", new URL(fresh).searchParams.get("token") ?? "");
      expect(await statusOf(shareId, bob)).toBe("confirmed");
    },
  );

  it(
    "each report reaches each confirmed recipient exactly once per period, after the mail server comes back",
    {
      timeout: 300_000,
    },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      smtp.refuseUntilAccepting();
      // The schedule's time has passed (as after an outage): both instances' ticks find it due.
      await database.db
        .update(reportSchedule)
        .set({ nextSendAt: new Date(Date.now() - 1000) })
        .where(eq(reportSchedule.shareId, shareId));
      const waiting = await until("the report in the outbox, tried against the refusing server", async () => {
        const rows = await database.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.about, `share:${shareId}`), eq(outbox.kind, "report")));
        return rows.length >= 2 && rows.every((row) => row.attempts > 0) ? rows : undefined;
      });
      // One email per recipient, however many instances found the report due.
      expect(waiting.map((row) => row.recipient).sort()).toEqual([ann, bob]);
      smtp.acceptAgain();
      expect(await settledReports("both reports delivered")).toEqual([ann, bob]);
      expect(reportsTo(ann)).toHaveLength(1);
      expect(reportsTo(bob)).toHaveLength(1);
      const [schedule] = await database.db.select().from(reportSchedule).where(eq(reportSchedule.shareId, shareId));
      expect(schedule?.nextSendAt.getTime()).toBeGreaterThan(Date.now());
      expect(schedule?.lastSentAt).not.toBeNull();

      const [mail] = reportsTo(ann);
      expect(mail?.text).toContain("Lost (1):");
      expect(mail?.text).toContain("https://mine.example/lost on https://blog.example/guest-post: now missing");
      const raw = (key: string) => mail?.headerLines.find((line) => line.key === key)?.line.replace(/\r\n[ \t]+/g, " ");
      expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      const [pdf] = mail?.attachments ?? [];
      expect(pdf?.contentType).toBe("application/pdf");
      const text = pdfText(pdf?.content as Buffer, "raw").replace(/\s+/g, " ");
      for (const words of [
        "Acme: spring placements",
        "Weekly link report",
        "By state: 1 live, 1 missing.",
        "https://mine.example/steady",
        "https://mine.example/lost",
        "Link no longer on the page",
        "Tracked links by state at the end of each day",
      ])
        expect(text).toContain(words);

      // The share link of the email opens the report, without an account.
      const reportUrl = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{32}/.exec(mail?.text ?? "")?.[0] ?? "";
      const report = await fetch(on(b, reportUrl));
      expect(report.status).toBe(200);
      expect(await report.text()).toContain("https://mine.example/lost");

      // The next period: due again, one more report each, saying what changed since the last one.
      await database.db
        .update(reportSchedule)
        .set({ nextSendAt: new Date(Date.now() - 1000) })
        .where(eq(reportSchedule.shareId, shareId));
      await until("the second reports", async () =>
        reportsTo(ann).length >= 2 && reportsTo(bob).length >= 2 ? true : undefined,
      );
      expect(await settledReports("the second reports delivered")).toEqual([ann, ann, bob, bob]);
      expect(reportsTo(ann)).toHaveLength(2);
      expect(reportsTo(bob)).toHaveLength(2);
      expect(reportsTo(ann)[1]?.text).toContain("What changed since the last report:");
    },
  );

  it(
    "unsubscribing without an account: the page's GET changes nothing, the one-click POST unsubscribes, and the next report skips the address",
    {
      timeout: 240_000,
    },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      const [mail] = reportsTo(bob);
      const visible = /https?:\/\/\S+\/report-emails\/unsubscribe\?token=[\w.-]+/.exec(mail?.text ?? "")?.[0] ?? "";
      for (const method of ["GET", "HEAD"]) expect((await fetch(on(a, visible), { method })).status).toBe(200);
      const page = await (await fetch(on(a, visible))).text();
      expect(headingOf(page)).toBe("Unsubscribe from these reports?");
      expect(page).toContain('action="/report-emails/unsubscribe/submit"');
      expect(await statusOf(shareId, bob)).toBe("confirmed");

      const header = mail?.headerLines.find((line) => line.key === "list-unsubscribe")?.line ?? "";
      const oneClick = /<([^>]+)>/.exec(header)?.[1] ?? "";
      expect(new URL(oneClick).pathname).toBe("/api/report-emails/unsubscribe");
      expect((await fetch(on(b, oneClick), { method: "GET" })).status).toBe(405);
      expect(await statusOf(shareId, bob)).toBe("confirmed");
      const posted = await fetch(on(b, oneClick), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(posted.status).toBe(200);
      expect(await posted.json()).toEqual({ unsubscribed: true, email: bob, report: "Acme: spring placements" });
      expect(await statusOf(shareId, bob)).toBe("unsubscribed");
      expect(headingOf(await (await fetch(on(a, visible))).text())).toBe("Unsubscribed");

      await database.db
        .update(reportSchedule)
        .set({ nextSendAt: new Date(Date.now() - 1000) })
        .where(eq(reportSchedule.shareId, shareId));
      await until("the third report", async () => (reportsTo(ann).length >= 3 ? true : undefined));
      expect(await settledReports("the third report delivered")).toEqual([ann, ann, ann, bob, bob]);
      expect(reportsTo(ann)).toHaveLength(3);
      expect(reportsTo(bob)).toHaveLength(2);
    },
  );
});
