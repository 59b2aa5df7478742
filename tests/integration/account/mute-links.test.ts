import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { JSDOM } from "jsdom";
import { recordAlertEvents } from "@/lib/alerts/events";
import { alertLinks, type AlertLinks } from "@/lib/alerts/links";
import { signMuteToken, verifyMuteToken, type MuteAction } from "@/lib/alerts/tokens";
import { resetAuth } from "@/lib/auth";
import { resetAuthLimiters } from "@/lib/auth/limits";
import { openDatabase, setDatabase, type Database } from "@/lib/db";
import { monitor, monitorMute, notificationPreference, outbox, trackedLink } from "@/lib/db/schema";
import { startPostgres, type PostgresServer } from "../../helpers/postgres";
import { startServer, type RunningServer } from "../../helpers/server";
import { auth } from "./harness";
import { makeTeam, type Team } from "./team-setup";

/**
 * The one-click links of alert emails on the production server (`npm run build` first). Mail scanners
 * open links, so a GET (or HEAD) of the mute link must change nothing: it shows a page whose form (plain
 * HTML, no JavaScript needed) POSTs the change. Mail clients keep RFC 8058 one-click through the
 * List-Unsubscribe URL. And an owner reading the team's outbox (Settings → Email, no SMTP) must not get
 * working links that act for another member.
 *
 * The team is made in this process on the server's PostgreSQL (same auth secret), so the test reads the
 * mutes and preferences straight from the database.
 */

const SECRET = "mute-secret-mute-secret-mute-secret-0123";
process.env.BETTER_AUTH_SECRET = SECRET;

let postgres: PostgresServer;
let database: Database;
let server: RunningServer;
let team: Team;
let links: AlertLinks;
let monitorId: string;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  database = openDatabase({ databaseUrl, dataDir: "" });
  await database.migrate();
  setDatabase(database);
  resetAuth();
  resetAuthLimiters();
  team = await makeTeam(database, "mute");
  server = await startServer({ DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: SECRET });
  links = alertLinks(server.baseUrl, SECRET);
  monitorId = randomUUID();
  // Checked next in 2100: the server's scheduler leaves it alone.
  await database.db.insert(monitor).values({
    id: monitorId,
    organizationId: team.organizationId,
    url: "https://www.blog.example/post/",
    intervalMinutes: 1440,
    nextCheckAt: new Date("2100-01-01T00:00:00Z"),
  });
  const tracked = randomUUID();
  await database.db.insert(trackedLink).values({
    id: tracked,
    organizationId: team.organizationId,
    monitorId,
    target: "https://mysite.example/landing",
    match: "exact",
    expectedRel: "follow",
    source: "manual",
    state: "missing",
  });
  // One alert: every member (immediate emails by default) gets an email with their own links.
  await database.db.transaction((tx) =>
    recordAlertEvents(
      tx,
      team.organizationId,
      [
        {
          type: "link_missing",
          monitorId,
          trackedLinkId: tracked,
          checkId: null,
          before: { state: "live", link: null },
          after: { state: "missing", link: null },
        },
      ],
      new Date(),
      links,
    ),
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await postgres?.stop();
});

const mutes = async (userId: string) =>
  database.db
    .select()
    .from(monitorMute)
    .where(and(eq(monitorMute.userId, userId), eq(monitorMute.monitorId, monitorId)));
const emailPreference = async (userId: string) =>
  (
    await database.db
      .select()
      .from(notificationPreference)
      .where(
        and(eq(notificationPreference.userId, userId), eq(notificationPreference.organizationId, team.organizationId)),
      )
  )[0]?.email ?? null;

async function alertEmailTo(email: string) {
  const [row] = await database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.kind, "alert")));
  if (!row) throw new Error(`no alert email to ${email}`);
  return row;
}

/** What a browser without JavaScript gets: status, body and (not followed) redirect. */
async function open(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { redirect: "manual", ...init });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

/** The page's POST form as a browser would submit it: absolute action and its fields. */
function postForm(html: string, pageUrl: string): { action: string; fields: URLSearchParams; button: string } | null {
  const { document } = new JSDOM(html).window;
  const form = document.querySelector("form");
  if (!form) return null;
  expect(form.getAttribute("method")?.toLowerCase()).toBe("post");
  const fields = new URLSearchParams();
  for (const input of form.querySelectorAll("input")) if (input.name) fields.append(input.name, input.value);
  const button = form.querySelector('button[type="submit"], button:not([type])')?.textContent?.trim() ?? "";
  return { action: new URL(form.getAttribute("action") ?? "", pageUrl).toString(), fields, button };
}

/** Submits the page's form and follows the 303 back to the page. */
async function submit(pageUrl: string) {
  const page = await open(pageUrl);
  const form = postForm(page.text, pageUrl);
  if (!form) throw new Error(`no form on ${pageUrl}:\n${page.text.slice(0, 500)}`);
  const posted = await open(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: form.fields,
  });
  expect(posted.status, posted.text.slice(0, 300)).toBe(303);
  return open(new URL(posted.location ?? "", form.action).toString());
}

const headingOf = (html: string) => new JSDOM(html).window.document.querySelector("h1, h2")?.textContent?.trim();

describe("one-click mute links (production server)", () => {
  it("a GET or HEAD of the email's mute link mutes nothing: it shows a page with a form that POSTs", async () => {
    const mail = await alertEmailTo(team.member.email);
    const muteUrl = /Mute this monitor: (\S+)/.exec(mail.text)?.[1] ?? "";
    expect(new URL(muteUrl).pathname).toBe("/mute");
    // A scanner opens it several ways, several times.
    for (let i = 0; i < 2; i += 1) {
      const page = await open(muteUrl);
      expect(page.status).toBe(200);
      expect(headingOf(page.text)).toBe("Mute this monitor?");
      expect(page.text).toContain("https://www.blog.example/post/");
      const form = postForm(page.text, muteUrl);
      expect(form?.action).toBe(`${server.baseUrl}/mute/confirm`);
      expect(form?.fields.get("token")).toBe(new URL(muteUrl).searchParams.get("token"));
      expect(form?.button).toBe("Mute this monitor");
      expect((await open(muteUrl, { method: "HEAD" })).status).toBe(200);
    }
    expect(await mutes(team.member.userId)).toEqual([]);

    // The digest's "turn alert emails off" link behaves the same: the page asks, the preference stays.
    const offUrl = links.mute({ kind: "off", userId: team.viewer.userId, organizationId: team.organizationId });
    const off = await open(offUrl);
    expect(headingOf(off.text)).toBe("Turn off alert emails?");
    expect(postForm(off.text, offUrl)?.button).toBe("Turn off alert emails");
    expect(await emailPreference(team.viewer.userId)).toBeNull();
  });

  it("the page's form (no JavaScript: a plain POST) mutes, and its Undo form unmutes", async () => {
    const muteUrl = /Mute this monitor: (\S+)/.exec((await alertEmailTo(team.admin.email)).text)?.[1] ?? "";
    const muted = await submit(muteUrl);
    expect(muted.status).toBe(200);
    expect(headingOf(muted.text)).toBe("Monitor muted");
    expect(await mutes(team.admin.userId)).toHaveLength(1);
    // Opening the link again shows the state, and offers Undo; it does not mute twice or unmute.
    const again = await open(muteUrl);
    expect(headingOf(again.text)).toBe("Monitor muted");
    expect(postForm(again.text, muteUrl)?.button).toBe("Undo");
    expect(await mutes(team.admin.userId)).toHaveLength(1);
    const undone = await submit(muteUrl);
    expect(headingOf(undone.text)).toBe("Mute this monitor?");
    expect(undone.text).toContain("Alert emails about this page are on again.");
    expect(await mutes(team.admin.userId)).toEqual([]);
    // Nobody else was touched.
    expect(await mutes(team.member.userId)).toEqual([]);

    const offUrl = links.mute({ kind: "off", userId: team.viewer.userId, organizationId: team.organizationId });
    expect(headingOf((await submit(offUrl)).text)).toBe("Alert emails off");
    expect(await emailPreference(team.viewer.userId)).toBe("off");
    expect((await submit(offUrl)).text).toContain("Daily digests are on again.");
    expect(await emailPreference(team.viewer.userId)).toBe("daily");
  });

  it("RFC 8058: POST List-Unsubscribe=One-Click to the email's List-Unsubscribe URL mutes, without a session", async () => {
    const mail = await alertEmailTo(team.member.email);
    expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const target = /^<(.+)>$/.exec(mail.headers?.["List-Unsubscribe"] ?? "")?.[1] ?? "";
    expect(new URL(target).pathname).toBe("/api/mute");
    const response = await fetch(target, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ muted: true, kind: "mute", pageUrl: "https://www.blog.example/post/" });
    expect(await mutes(team.member.userId)).toHaveLength(1);
    await database.db.delete(monitorMute);
  });

  it("a broken, altered or stale link gets a page that says so (no form, not a 500), and posting it changes nothing", async () => {
    const [payload, signature] = signMuteToken(SECRET, { kind: "mute", userId: team.member.userId, monitorId }).split(
      ".",
    );
    const goneMonitor = randomUUID();
    await database.db.insert(monitor).values({
      id: goneMonitor,
      organizationId: team.organizationId,
      url: "https://gone.example/",
      intervalMinutes: 1440,
      nextCheckAt: new Date("2100-01-01T00:00:00Z"),
    });
    const stale = signMuteToken(SECRET, { kind: "mute", userId: team.member.userId, monitorId: goneMonitor });
    await database.db.delete(monitor).where(eq(monitor.id, goneMonitor));
    const cases: Array<[string, string, string]> = [
      ["no token", "", "this link is not valid"],
      ["garbage", "?token=not-a-token", "this link is not valid"],
      ["altered signature", `?token=${payload}.x${signature}`, "this link is not valid"],
      [
        "another user's payload",
        `?token=${Buffer.from(JSON.stringify(["mute", team.owner.userId, monitorId])).toString("base64url")}.${signature}`,
        "this link is not valid",
      ],
      ["a deleted monitor", `?token=${stale}`, "no longer exists"],
      [
        "a user of no team",
        `?token=${signMuteToken(SECRET, { kind: "mute", userId: "nobody", monitorId })}`,
        "no longer exists",
      ],
    ];
    for (const [name, query, message] of cases) {
      const pageUrl = `${server.baseUrl}/mute${query}`;
      const page = await open(pageUrl);
      expect(page.status, name).toBe(200);
      expect(headingOf(page.text), name).toBe("This link did not work");
      expect(page.text, name).toContain(message);
      expect(postForm(page.text, pageUrl), name).toBeNull();
      const token = new URLSearchParams(query).get("token") ?? "";
      const posted = await open(`${server.baseUrl}/mute/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }),
      });
      expect(posted.status, `${name}: ${posted.text.slice(0, 200)}`).toBe(303);
      expect(headingOf((await open(new URL(posted.location ?? "", server.baseUrl).toString())).text), name).toBe(
        "This link did not work",
      );
    }
    // A body that is not a form, and a GET of the form's target.
    expect(
      (
        await open(`${server.baseUrl}/mute/confirm`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{",
        })
      ).status,
    ).toBe(303);
    expect((await open(`${server.baseUrl}/mute/confirm`)).status).toBe(405);
    expect(await database.db.select().from(monitorMute)).toEqual([]);
  });

  it("the owner's outbox shows the team's emails without another member's working one-click link", async () => {
    const response = await fetch(`${server.baseUrl}/api/account/outbox?limit=100`, {
      headers: { cookie: team.owner.cookie },
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    const { items } = JSON.parse(body) as { items: Array<{ recipient: string; kind: string; text: string }> };
    // Whatever in the owner's view looks like a token acts for nobody else.
    const candidates = new Set([...body.matchAll(/[\w-]{16,}\.[\w-]{16,}/g)].map((match) => match[0]));
    const others = new Set<string>();
    for (const candidate of candidates) {
      const action: MuteAction | null = verifyMuteToken(SECRET, candidate);
      if (action && action.userId !== team.owner.userId) others.add(candidate);
      await fetch(`${server.baseUrl}/api/mute?token=${encodeURIComponent(candidate)}`, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      await fetch(`${server.baseUrl}/mute/confirm`, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams({ token: candidate }),
      });
    }
    const muted = await database.db.select().from(monitorMute);
    expect(muted.filter((row) => row.userId !== team.owner.userId)).toEqual([]);
    for (const person of [team.admin, team.member, team.viewer])
      expect(await emailPreference(person.userId), person.email).not.toBe("off");
    expect([...others]).toEqual([]);
    const alerts = items.filter((item) => item.kind === "alert");
    expect(alerts.map((item) => item.recipient).sort()).toEqual(
      [team.admin.email, team.member.email, team.owner.email, team.viewer.email].sort(),
    );
    for (const item of alerts.filter((item) => item.recipient !== team.owner.email)) {
      expect(item.text, item.recipient).toContain("Mute this monitor: [");
      expect(item.text, item.recipient).not.toMatch(/token=/);
      expect(item.text, item.recipient).toContain(`/app/monitors/${monitorId}`);
    }
    // The owner's own email keeps its link: it is theirs.
    const own =
      /Mute this monitor: (\S+)/.exec(alerts.find((item) => item.recipient === team.owner.email)?.text ?? "")?.[1] ??
      "";
    expect(verifyMuteToken(SECRET, new URL(own).searchParams.get("token") ?? "")).toEqual({
      kind: "mute",
      userId: team.owner.userId,
      monitorId,
    });

    await database.db.delete(monitorMute);
  });

  it("another member's sign-in, reset and address-confirmation emails are not in the owner's outbox at all", async () => {
    expect(
      (await auth("POST", "/sign-in/magic-link", { body: { email: team.member.email, callbackURL: "/app" } })).status,
    ).toBe(200);
    expect(
      (
        await auth("POST", "/request-password-reset", {
          body: { email: team.member.email, redirectTo: "/reset-password" },
        })
      ).status,
    ).toBe(200);
    const queued = await database.db.select().from(outbox).where(eq(outbox.recipient, team.member.email));
    expect(new Set(queued.map((row) => row.kind))).toEqual(
      new Set(["verify_email", "invitation", "alert", "magic_link", "password_reset"]),
    );
    const response = await fetch(`${server.baseUrl}/api/account/outbox?limit=100`, {
      headers: { cookie: team.owner.cookie },
    });
    const { items } = (await response.json()) as { items: Array<{ recipient: string; kind: string; text: string }> };
    const theirs = items.filter((item) => item.recipient === team.member.email);
    // The invitation is the team's (an owner may pass it on: accepting needs the invitee's account).
    expect(theirs.map((item) => item.kind).sort()).toEqual(["alert", "invitation"]);
    for (const row of queued.filter((row) => ["verify_email", "magic_link", "password_reset"].includes(row.kind))) {
      const link = /https?:\/\/\S+/.exec(row.text)?.[0] ?? "";
      expect(link).not.toBe("");
      expect(JSON.stringify(items)).not.toContain(link);
    }
  });
});
