import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { recordAlertEvents, type NewAlertEvent } from "@/lib/alerts/events";
import { alertLinks } from "@/lib/alerts/links";
import { openDatabase, type Database } from "@/lib/db";
import { monitor, trackedLink, webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import { startServer, type RunningServer } from "./../helpers/server";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { chatService, type ChatService } from "../helpers/chat-receivers";
import { startTripwire, startWebhookReceiver, type Tripwire, type WebhookReceiver } from "../helpers/webhook-receiver";

/**
 * Webhooks on the production build (dist/server.cjs), two instances on one PostgreSQL, real local
 * receivers and a real SMTP server: a backlog written while no instance runs is drained by two that
 * start together, each delivery accepted exactly once (at least once, one instance at a time), and so
 * for each chat kind on a receiver that answers as its service does (Telegram refusing at first); an
 * organization whose receivers hang holds at most its share of both instances' slots while another's
 * delivery goes out; 10,000 events in a burst do not hold up an email or a monitor check; a receiver that hangs costs 10 s and
 * fails; a delivery that keeps failing disables its endpoint and emails the admins; a receiver that is
 * not (or no longer) allowed gets nothing.
 */

const SECRET = "shared-secret-shared-secret-shared-secret";
let postgres: PostgresServer;
let databaseUrl: string;
let receiver: WebhookReceiver;
let tripwire: Tripwire;
let smtp: TestSmtpServer;
let site: FixtureSite;
let database: Database;
const servers: RunningServer[] = [];

function env(extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
    ALLOW_PRIVATE_HOSTS: [receiver.allowEntry, site.allowEntry, `${tripwire.host}:443`].join(","),
    SMTP_URL: smtp.url,
    MAIL_FROM: "LinkLens <alerts@linklens.test>",
    MAIL_RETRY_BASE_SECONDS: "1",
    MONITOR_POLL_SECONDS: "1",
    // 5 ms, 25 ms, 150 ms, 0.6 s, 2.4 s, 7.2 s, 7.2 s: a whole schedule in about 20 s.
    WEBHOOK_RETRY_BASE_SECONDS: "0.005",
    ...extra,
  };
}

async function start(extra: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(env(extra));
  servers.push(server);
  return server;
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  [receiver, tripwire, smtp, site] = await Promise.all([
    startWebhookReceiver(),
    startTripwire(),
    startSmtpServer(),
    startFixtureSite(),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.close();
  await Promise.all([receiver?.close(), tripwire?.close(), smtp?.stop(), site?.close()]);
  await postgres?.stop();
});

async function json(server: RunningServer, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, text };
}

async function signUp(server: RunningServer, email: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email, password: "correct horse battery", name: email.split("@")[0] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A paused monitor with one tracked link (the scheduler leaves it alone), written straight to the shared database. */
async function placement(organizationId: string) {
  const monitorId = randomUUID();
  const linkId = randomUUID();
  await database.db.insert(monitor).values({
    id: monitorId,
    organizationId,
    url: `https://blog.example.org/${monitorId}`,
    intervalMinutes: 1440,
    paused: true,
    nextCheckAt: new Date(Date.now() + 86_400_000),
  });
  await database.db.insert(trackedLink).values({
    id: linkId,
    organizationId,
    monitorId,
    target: "https://mine.example/",
    match: "exact",
    source: "manual",
    state: "live",
  });
  return { monitorId, linkId };
}

/** `count` anchor changes of one placement, numbered from `from`. */
function anchorChanges(where: { monitorId: string; linkId: string }, count: number, from = 0): NewAlertEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type: "anchor_changed",
    monitorId: where.monitorId,
    trackedLinkId: where.linkId,
    checkId: null,
    before: { state: "live" },
    after: { state: "anchor_mismatch", n: from + i },
  }));
}

/** Writes `total` events in transactions of `batch`, as checks do (each writes its deliveries with it). */
async function writeEvents(organizationId: string, total: number, origin: string, batch = 250): Promise<void> {
  const links = alertLinks(origin, SECRET);
  const where = await placement(organizationId);
  for (let written = 0; written < total; written += batch) {
    const events = anchorChanges(where, Math.min(batch, total - written), written);
    await database.db.transaction((tx) => recordAlertEvents(tx, organizationId, events, new Date(), links));
  }
}

const pendingOf = async (endpointId: string) =>
  (
    await database.db
      .select({ n: count() })
      .from(webhookDelivery)
      .where(and(eq(webhookDelivery.endpointId, endpointId), sql`status <> 'delivered'`))
  )[0]?.n ?? 0;

describe("webhooks across two instances on one PostgreSQL (production build)", () => {
  let owner = "";
  let organizationId = "";
  let a: RunningServer;
  let b: RunningServer;
  let burstEndpoint = "";

  it(
    "a backlog written while no instance runs is drained by two that start together: each delivery accepted exactly once",
    { timeout: 300_000 },
    async () => {
      const first = await start();
      owner = await signUp(first, "owner@hooks.example");
      organizationId = String(
        ((await json(first, "GET", "/api/account/me", owner)).body?.organization as { id: string }).id,
      );
      // Alert emails off for the owner: the only emails below are the ones the test makes happen.
      expect((await json(first, "PUT", "/api/account/notifications", owner, { email: "off" })).status).toBe(200);
      const created = await json(first, "POST", "/api/account/webhooks", owner, {
        url: receiver.url("/once"),
        types: ["anchor_changed"],
      });
      expect(created.status, created.text).toBe(201);
      const endpointId = String(created.body?.id);
      const secret = String(created.body?.secret);
      await first.stop();
      servers.splice(servers.indexOf(first), 1);

      database = openDatabase({ databaseUrl, dataDir: "" });
      // The receiver is down at first: every delivery fails at least once, then is retried.
      receiver.on("/once", { kind: "answer", status: 503, body: "down" });
      await writeEvents(organizationId, 300, "http://127.0.0.1");
      [a, b] = await Promise.all([start(), start()]);
      await until("the first failed attempts", async () => (receiver.to("/once").length >= 50 ? true : undefined));
      receiver.on("/once", { kind: "answer", status: 200, body: "ok" });
      await until(
        "every delivery delivered",
        async () => ((await pendingOf(endpointId)) === 0 ? true : undefined),
        180_000,
      );
      // Give both senders a few more passes to send anything twice.
      await new Promise((resolve) => setTimeout(resolve, 3_000));

      const requests = receiver.to("/once");
      const accepted = requests.map((request) => request.headers["webhook-id"]);
      const rows = await database.db.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpointId));
      expect(rows).toHaveLength(300);
      // Every attempt the database counts reached the receiver once: no attempt was made twice at once.
      expect(requests).toHaveLength(rows.reduce((sum, row) => sum + row.attempts, 0));
      expect(new Set(accepted).size).toBe(300);
      // Each delivery's last attempt is its one success; the earlier ones were refused while the receiver was down.
      for (const row of rows) {
        const mine = requests.filter((request) => request.headers["webhook-id"] === `msg_${row.id}`);
        expect(mine).toHaveLength(row.attempts);
        expect(new Webhook(secret).verify(mine.at(-1)?.body ?? "", mine.at(-1)?.headers ?? {})).toMatchObject({
          type: "anchor_changed",
        });
      }
      expect(rows.every((row) => row.status === "delivered" && row.responseStatus === 200)).toBe(true);
      expect(Math.max(...rows.map((row) => row.attempts))).toBeGreaterThan(1);
    },
  );

  it(
    "fair across organizations: one whose receivers hang holds at most its share of both instances' slots, another's delivery goes out meanwhile; each delivery once",
    { timeout: 180_000 },
    async () => {
      // Two more teams: A with four endpoints that hang (both instances' 64 slots under a per-endpoint cap alone), B with one that answers.
      const soloTeam = async (email: string) => {
        const cookie = await signUp(a, email);
        expect((await json(a, "PUT", "/api/account/notifications", cookie, { email: "off" })).status).toBe(200);
        return {
          cookie,
          organizationId: String(
            ((await json(a, "GET", "/api/account/me", cookie)).body?.organization as { id: string }).id,
          ),
        };
      };
      const slow = await soloTeam("slow@hooks.example");
      const quick = await soloTeam("quick@hooks.example");
      const hung = ["/hung-1", "/hung-2", "/hung-3", "/hung-4"];
      const endpointsA: string[] = [];
      for (const where of hung) {
        receiver.on(where, { kind: "hang" });
        const created = await json(a, "POST", "/api/account/webhooks", slow.cookie, {
          url: receiver.url(where),
          types: ["anchor_changed"],
        });
        expect(created.status, created.text).toBe(201);
        endpointsA.push(String(created.body?.id));
      }
      const createdB = await json(b, "POST", "/api/account/webhooks", quick.cookie, {
        url: receiver.url("/prompt"),
        types: ["anchor_changed"],
      });
      expect(createdB.status, createdB.text).toBe(201);
      // A's import (80 events: 320 deliveries) a second older than B's one alert, written together: every claim sees both.
      const links = alertLinks(a.baseUrl, SECRET);
      const [whereA, whereB] = [await placement(slow.organizationId), await placement(quick.organizationId)];
      await database.db.transaction(async (tx) => {
        await recordAlertEvents(
          tx,
          slow.organizationId,
          anchorChanges(whereA, 80),
          new Date(Date.now() - 1_000),
          links,
        );
        await recordAlertEvents(tx, quick.organizationId, anchorChanges(whereB, 1), new Date(), links);
      });

      const toB = await until("B's delivery at its receiver", async () => receiver.to("/prompt")[0]);
      // No attempt of A's had ended when B's arrived (they hang for 10 s): B did not wait for A's slots to free up.
      const toA = () => hung.flatMap((where) => receiver.to(where));
      const endedBeforeB = toA().filter((request) => request.closedAt !== undefined && request.closedAt <= toB.at);
      expect(
        endedBeforeB.length,
        `${endedBeforeB.length} of A's ${toA().length} attempts ended before B's delivery arrived`,
      ).toBe(0);
      for (const where of hung) receiver.release(where);
      await until("every delivery of both delivered", async () => {
        const left = await database.db
          .select({ n: count() })
          .from(webhookDelivery)
          .where(
            and(
              inArray(webhookDelivery.organizationId, [slow.organizationId, quick.organizationId]),
              sql`status <> 'delivered'`,
            ),
          );
        return left[0]?.n === 0 ? true : undefined;
      });
      // A never held more than its cap of 8 at once (twice that if both instances claimed at the same moment), never the 64 slots of both.
      expect(receiver.mostOpenAtOnce(hung)).toBeLessThanOrEqual(16);
      // Each delivery accepted once: every attempt the database counts reached a receiver once.
      const rows = await database.db
        .select()
        .from(webhookDelivery)
        .where(inArray(webhookDelivery.organizationId, [slow.organizationId, quick.organizationId]));
      expect(rows).toHaveLength(321);
      const requests = [...toA(), ...receiver.to("/prompt")];
      expect(requests).toHaveLength(rows.reduce((sum, row) => sum + row.attempts, 0));
      for (const row of rows)
        expect(requests.filter((request) => request.headers["webhook-id"] === `msg_${row.id}`)).toHaveLength(
          row.attempts,
        );
    },
  );

  it(
    "chat kinds: a Discord, a Teams, a Google Chat and a Telegram endpoint each take every event exactly once from both instances, Telegram after answering ok: false",
    { timeout: 120_000 },
    async () => {
      const cookie = await signUp(b, "chat@hooks.example");
      expect((await json(b, "PUT", "/api/account/notifications", cookie, { email: "off" })).status).toBe(200);
      const chatOrganization = String(
        ((await json(b, "GET", "/api/account/me", cookie)).body?.organization as { id: string }).id,
      );
      const services: Array<[ChatService, string, string, number]> = [
        ["discord", "/chat/api/webhooks/1234567890/tokenT", "", 204],
        ["teams", "/chat/workflows/w/triggers/manual/paths/invoke", "?sig=S", 202],
        ["google_chat", "/chat/v1/spaces/AAAA/messages", "?key=K&token=T", 200],
        ["telegram", "/chat/bot7000000001:AAH-x/sendMessage", "?chat_id=42", 200],
      ];
      const telegramPath = services[3]?.[1] ?? "";
      const endpoints: string[] = [];
      for (const [kind, path, query] of services) {
        receiver.on(path, chatService(kind));
        const created = await json(a, "POST", "/api/account/webhooks", cookie, {
          url: receiver.url(`${path}${query}`),
          kind,
          types: ["anchor_changed"],
        });
        expect(created.status, created.text).toBe(201);
        endpoints.push(String(created.body?.id));
      }
      // A 200 that is not Telegram's "ok": true: every attempt a failure, retried by whichever instance claims it.
      receiver.on(telegramPath, {
        kind: "answer",
        status: 200,
        body: '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1"}',
      });
      await writeEvents(chatOrganization, 25, a.baseUrl);
      await until("every Telegram delivery refused once", async () =>
        new Set(receiver.to(telegramPath).map((request) => request.headers["webhook-id"])).size === 25
          ? true
          : undefined,
      );
      receiver.on(telegramPath, chatService("telegram"));
      await until("every chat delivery delivered", async () => {
        const left = await Promise.all(endpoints.map((id) => pendingOf(id)));
        return left.every((n) => n === 0) ? true : undefined;
      });
      for (const [index, [kind, path, , success]] of services.entries()) {
        const rows = await database.db
          .select()
          .from(webhookDelivery)
          .where(eq(webhookDelivery.endpointId, endpoints[index] ?? ""));
        const requests = receiver.to(path);
        expect(rows, kind).toHaveLength(25);
        expect(
          rows.every((row) => row.status === "delivered" && row.responseStatus === success),
          kind,
        ).toBe(true);
        // Every attempt the database counts reached the receiver once, and only a delivery's last was taken.
        expect(requests, kind).toHaveLength(rows.reduce((sum, row) => sum + row.attempts, 0));
        expect(new Set(requests.map((request) => request.headers["webhook-id"])).size, kind).toBe(25);
        if (kind === "telegram") expect(rows.every((row) => row.attempts > 1)).toBe(true);
      }
    },
  );

  it(
    "10,000 events in a burst: an email and a monitor check made during it go out as usual; the backlog drains",
    { timeout: 600_000 },
    async () => {
      // Only the burst's endpoint takes these events.
      const endpoints = (await json(a, "GET", "/api/account/webhooks", owner)).body?.items as Array<{ id: string }>;
      for (const endpoint of endpoints)
        expect((await json(a, "PATCH", `/api/account/webhooks/${endpoint.id}`, owner, { enabled: false })).status).toBe(
          200,
        );
      const created = await json(a, "POST", "/api/account/webhooks", owner, {
        url: receiver.url("/burst"),
        types: ["anchor_changed"],
      });
      expect(created.status, created.text).toBe(201);
      const burstId = String(created.body?.id);
      burstEndpoint = burstId;
      const started = Date.now();
      await writeEvents(organizationId, 10_000, a.baseUrl, 500);
      const written = Date.now();

      // During the drain: an invitation (an email through the outbox) and a new monitor (checked at once by the scheduler).
      const before = smtp.received.length;
      const invited = await json(b, "POST", "/api/account/invitations", owner, {
        email: "during-burst@hooks.example",
        role: "viewer",
      });
      expect(invited.status, invited.text).toBe(201);
      site.setPage("/burst/post", {
        body: "<!doctype html><title>Post</title><p><a href='https://mine.example/'>Mine</a></p>",
      });
      const made = await json(a, "POST", "/api/account/monitors", owner, {
        url: site.url("/burst/post"),
        links: [{ target: "https://mine.example/" }],
      });
      expect(made.status, made.text).toBe(201);
      const asked = Date.now();
      const emailAfter = await until(
        "the invitation email",
        async () =>
          smtp.received.slice(before).some((mail) => mail.subject?.includes("invited you"))
            ? Date.now() - asked
            : undefined,
        60_000,
      );
      const backlogAtEmail = await pendingOf(burstId);
      const checkAfter = await until(
        "the monitor's first check",
        async () =>
          (await json(b, "GET", `/api/account/monitors/${String(made.body?.id)}`, owner)).body?.lastCheckedAt
            ? Date.now() - asked
            : undefined,
        90_000,
      );
      const backlogAtCheck = await pendingOf(burstId);
      await until("the burst drained", async () => ((await pendingOf(burstId)) === 0 ? true : undefined), 480_000);
      const drained = Date.now();
      const ids = receiver.to("/burst").map((request) => request.headers["webhook-id"]);
      expect(ids).toHaveLength(10_000);
      expect(new Set(ids).size).toBe(10_000);
      console.log(
        `burst of 10,000: written in ${written - started} ms, drained ${drained - written} ms after (${Math.round(10_000 / ((drained - written) / 1000))}/s over two instances); ` +
          `email ${emailAfter} ms after asking (${backlogAtEmail} deliveries still waiting), first check ${checkAfter} ms (${backlogAtCheck} waiting)`,
      );
      // The mail sender polls every 5 s; a check renders a page. Neither waited for the backlog.
      expect(emailAfter).toBeLessThan(30_000);
      expect(checkAfter).toBeLessThan(60_000);
    },
  );

  it("a receiver that hangs: the ping answers failed after 10 s", { timeout: 60_000 }, async () => {
    receiver.on("/hang", { kind: "hang" });
    const created = await json(a, "POST", "/api/account/webhooks", owner, { url: receiver.url("/hang"), types: [] });
    const started = Date.now();
    const ping = await json(a, "POST", `/api/account/webhooks/${String(created.body?.id)}/test`, owner);
    const took = Date.now() - started;
    expect(ping.status, ping.text).toBe(200);
    expect(ping.body).toMatchObject({
      type: "ping",
      status: "failed",
      responseStatus: null,
      error: "No answer within 10 s.",
    });
    expect(took).toBeGreaterThanOrEqual(9_900);
    expect(took).toBeLessThan(20_000);
    await json(a, "DELETE", `/api/account/webhooks/${String(created.body?.id)}`, owner);
  });

  it(
    "a delivery that fails 8 times disables its endpoint and the admins get an email (through SMTP)",
    { timeout: 120_000 },
    async () => {
      receiver.on("/down", { kind: "answer", status: 500, body: "still down" });
      const created = await json(b, "POST", "/api/account/webhooks", owner, {
        url: receiver.url("/down"),
        types: ["anchor_changed"],
        description: "CRM",
      });
      expect((await json(b, "PATCH", `/api/account/webhooks/${burstEndpoint}`, owner, { enabled: false })).status).toBe(
        200,
      );
      const endpointId = String(created.body?.id);
      await writeEvents(organizationId, 1, a.baseUrl);
      const endpoint = await until("the endpoint disabled", async () => {
        const got = await json(a, "GET", `/api/account/webhooks/${endpointId}`, owner);
        return got.body?.enabled === false ? got.body : undefined;
      });
      expect(endpoint).toMatchObject({ consecutiveFailures: 8, lastStatus: 500 });
      expect(receiver.to("/down")).toHaveLength(8);
      const mail = await until("the email to the owner", async () =>
        smtp.received.find((m) => m.subject?.startsWith("Webhook disabled")),
      );
      expect(mail.subject).toMatch(/^Webhook disabled: 127\.0\.0\.1:\d+ \(CRM\) \(owner's team\)$/);
      expect(mail.text).toContain("HTTP 500");
      const deliveries = await json(a, "GET", `/api/account/webhooks/${endpointId}/deliveries`, owner);
      expect((deliveries.body?.items as Array<Record<string, unknown>>)[0]).toMatchObject({
        status: "failed",
        attempt: 8,
        responseStatus: 500,
        responseBody: "still down",
        nextAttemptAt: null,
      });
    },
  );

  it(
    "an address no longer allowed gets nothing: created where it was allowed, an instance without the entry sends nothing there",
    { timeout: 240_000 },
    async () => {
      const created = await json(a, "POST", "/api/account/webhooks", owner, {
        url: `https://${tripwire.host}/hook`,
        types: ["anchor_changed"],
      });
      expect(created.status, created.text).toBe(201);
      const endpointId = String(created.body?.id);
      await Promise.all([a.stop(), b.stop()]);
      const c = await start({ ALLOW_PRIVATE_HOSTS: [receiver.allowEntry, site.allowEntry].join(",") });
      const before = tripwire.connections();
      const ping = await json(c, "POST", `/api/account/webhooks/${endpointId}/test`, owner);
      expect(ping.body).toMatchObject({ status: "failed", responseStatus: null });
      expect(String(ping.body?.error)).toMatch(/^Not sent: /);
      await writeEvents(organizationId, 3, c.baseUrl);
      await until("the sender's attempts", async () => {
        const rows = await database.db
          .select()
          .from(webhookDelivery)
          .where(and(eq(webhookDelivery.endpointId, endpointId), sql`attempts > 0`, sql`type <> 'ping'`));
        return rows.length === 3 ? rows : undefined;
      });
      expect(tripwire.connections()).toBe(before);
      const [row] = await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpointId));
      expect(row?.lastStatus).toBeNull();
    },
  );
});
