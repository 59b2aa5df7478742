import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { PUT as putNotifications } from "@/app/api/account/notifications/route";
import { POST as mute } from "@/app/api/mute/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import type { Database } from "@/lib/db";
import { outbox } from "@/lib/db/schema";
import { deliverDue, smtpTransport } from "@/lib/mail/sender";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { htmlPage, type MonitorJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The alert promise end to end: a tracked link removed from a real fixture page, rendered in Chromium
 * through the analyzer's front door, becomes `missing` at the confirming check, and exactly one email per
 * member arrives through a real SMTP server — right subject, HTML and text parts, the page's hostile
 * anchor text as text, a working mute link — and a muted member gets nothing about that page again.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";

const HOSTILE = "<img src=x onerror=alert(1)>";

let site: FixtureSite;
let smtp: TestSmtpServer;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await smtp?.stop();
  await closeAll();
});

describe.each(BACKENDS)("alert emails from real checks (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `f-${backend}`);
  });

  const deliver = () =>
    deliverDue({
      db: database.db,
      transport: smtpTransport(smtp.url),
      from: "LinkLens <alerts@linklens.test>",
      now: () => new Date(Date.now() + 1000),
    });
  /** This backend's alert emails to `email` (the SMTP server is shared, and also gets invitations). */
  const alertMailsTo = (email: string) =>
    smtp.received.filter(
      (mail) =>
        mail.to &&
        "text" in mail.to &&
        mail.to.text === email &&
        /^Link /.test(mail.subject ?? "") &&
        mail.subject?.includes(backend),
    );

  async function check(id: string): Promise<MonitorJson> {
    const result = await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id } });
    expect(result.status, result.text).toBe(200);
    return result.json as unknown as MonitorJson;
  }

  it("a removed link: nothing after the first miss, one email per member after the confirming check, muting works", async () => {
    const page = `/alerts-${backend}/post`;
    // The target is on the fixture site too: this machine has no internet, and an unreachable target is broken.
    const target = site.url(`/landing-${backend}`);
    site.setPage(`/landing-${backend}`, { body: htmlPage("landing") });
    const withLink = htmlPage(
      `<p>Our pick: <a href="${target}">${HOSTILE.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</a></p>`,
    );
    site.setPage(page, { body: withLink });
    // The viewer prefers a daily digest: no immediate email for them.
    await call(putNotifications, "PUT", "/x", { cookie: team.viewer.cookie, body: { email: "daily" } });
    const created = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(page), links: [{ target, match: "exact", expectedRel: "follow" }] },
    });
    expect(created.status, created.text).toBe(201);
    const monitorId = (created.json as { id: string }).id;

    expect((await check(monitorId)).links[0]?.state).toBe("live");
    site.setPage(page, { body: htmlPage("<p>Edited: the link is gone.</p>") });
    expect((await check(monitorId)).links[0]?.state).toBe("live");
    await deliver();
    expect(
      smtp.received.filter((mail) => mail.subject?.startsWith("Link removed") && mail.subject.includes(backend)),
    ).toHaveLength(0);

    expect((await check(monitorId)).links[0]?.state).toBe("missing");
    await deliver();
    const subject = `Link removed: 127.0.0.1/landing-${backend} on 127.0.0.1/alerts-${backend}/post`;
    for (const person of [team.owner, team.admin, team.member]) {
      const mails = alertMailsTo(person.email);
      expect(
        mails.map((mail) => mail.subject),
        person.email,
      ).toEqual([subject]);
      const [mail] = mails;
      expect(mail?.text).toContain(HOSTILE);
      expect(String(mail?.html)).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(String(mail?.html)).not.toContain("<img src=x");
      expect(mail?.text).toContain(`/app/monitors/${monitorId}`);
    }
    expect(alertMailsTo(team.viewer.email)).toHaveLength(0);
    expect(await deliver()).toMatchObject({ sent: 0 });

    // The member follows "Mute this monitor" (one click, no session); the link comes back and goes again.
    const muteUrl = /Mute this monitor: (\S+)/.exec(alertMailsTo(team.member.email)[0]?.text ?? "")?.[1] ?? "";
    const token = new URL(muteUrl).searchParams.get("token") ?? "";
    expect((await call(mute, "POST", `/api/mute?token=${token}`, { origin: null })).json).toMatchObject({
      muted: true,
    });
    site.setPage(page, { body: withLink });
    await check(monitorId);
    await deliver();
    expect(alertMailsTo(team.owner.email).map((mail) => mail.subject)).toContain(
      `Link back: 127.0.0.1/landing-${backend} on 127.0.0.1/alerts-${backend}/post`,
    );
    expect(alertMailsTo(team.member.email)).toHaveLength(1);
    const pending = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, team.member.email), eq(outbox.kind, "alert")));
    expect(pending).toHaveLength(1);
  });
});
