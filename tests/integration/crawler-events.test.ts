import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "pg";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { VERDICT_TARGET_PATH } from "@/scripts/lib/fixture-verdict";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

/**
 * crawler_access_changed across two instances on one PostgreSQL (production build; google-view.md §3):
 * monitored pages whose robots.txt changes under them are checked by both instances in turn. Each
 * instance keeps its own robots.txt reading for an hour, so they hold readings of different ages: the
 * change is one event, written by the check whose newer reading saw it, never undone by the other
 * instance's older reading, emailed once and delivered once to each endpoint (standard and Slack). The
 * first set a page gets is not a change, and neither is a robots.txt that cannot be read (its last known
 * set stands, and the export keeps it). One page per scenario, each on an origin of its own: robots.txt
 * belongs to an origin, and an instance asks an origin again only after its hour.
 */

const SECRET = "crawler-events-secret-crawler-events-secret";
const GPTBOT_ONLY = "User-agent: GPTBot\nDisallow: /\n";
const GPTBOT_AND_CCBOT = "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n";
const PAGE = "/events/crawlers";

let postgres: PostgresServer;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
/** The set changes (x), robots.txt becomes unreadable (y), robots.txt is unreadable at first (z). */
let x: FixtureSite;
let y: FixtureSite;
let z: FixtureSite;
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let db: Client;

const robots = (site: FixtureSite, body: string, status = 200) =>
  site.setPage("/robots.txt", { status, body, headers: { "content-type": "text/plain" } });

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  [x, y, z, smtp, receiver] = await Promise.all([
    startFixtureSite(),
    startFixtureSite(),
    startFixtureSite(),
    startSmtpServer(),
    startWebhookReceiver(),
  ]);
  for (const site of [x, y, z])
    site.setPage(PAGE, {
      body: `<!doctype html><title>Review</title><main><p>We recommend <a href="${VERDICT_TARGET_PATH}">our partner</a>.</p></main>`,
    });
  const env = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
    ALLOW_PRIVATE_HOSTS: [x, y, z].map((site) => site.allowEntry).join(",") + `,${receiver.allowEntry}`,
    SMTP_URL: smtp.url,
    MAIL_FROM: "LinkLens <alerts@linklens.test>",
    MAIL_RETRY_BASE_SECONDS: "1",
    // Every check is the test's ("Check now"), alternating between the instances.
    MONITOR_SCHEDULER: "off",
    LINK_CHECK_TIMEOUT_MS: "3000",
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
}, 240_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([x?.close(), y?.close(), z?.close(), receiver?.close(), smtp?.stop()]);
  await postgres?.stop();
});

async function api(server: RunningServer, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type Crawlers = Record<string, string> | null;

describe("crawler_access_changed on two instances sharing PostgreSQL", () => {
  it(
    "one event per change, from the newer reading; none for the first set or an unreadable robots.txt; emailed and delivered once",
    { timeout: 300_000 },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      const signUp = await fetch(`${a.baseUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: a.baseUrl },
        body: JSON.stringify({ email: "owner@crawler-events.example", password: "correct horse battery", name: "O" }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      for (const [kind, path] of [
        ["standard", "/standard"],
        ["slack", "/slack/T000/B000/XXXX"],
      ] as const) {
        const hook = await api(a, "POST", "/api/account/webhooks", cookie, { url: receiver.url(path), kind });
        expect(hook.status, hook.text).toBe(201);
      }

      const monitorOf = async (site: FixtureSite) => {
        const created = await api(a as RunningServer, "POST", "/api/account/monitors", cookie, {
          url: site.url(PAGE),
          links: [{ target: site.url(VERDICT_TARGET_PATH) }],
        });
        expect(created.status, created.text).toBe(201);
        return String(created.json?.id);
      };
      const check = async (server: RunningServer, id: string): Promise<Crawlers> => {
        const checked = await api(server, "POST", `/api/account/monitors/${id}/check`, cookie);
        expect(checked.status, checked.text).toBe(200);
        return (checked.json?.page as { crawlers: Crawlers }).crawlers;
      };
      const blocked = (crawlers: Crawlers) =>
        Object.entries(crawlers ?? {}).flatMap(([agent, access]) => (access === "disallowed" ? [agent] : []));
      const eventsOf = async (id: string) =>
        (
          await db.query<{ id: string; type: string; before: unknown; after: unknown; check_id: string }>(
            "SELECT id, type, before, after, check_id FROM alert_event WHERE monitor_id = $1 ORDER BY created_at, id",
            [id],
          )
        ).rows;

      // x: the first set is no change; a newer reading with one more agent blocked is one.
      robots(x, GPTBOT_ONLY);
      const onX = await monitorOf(x);
      expect(blocked(await check(a, onX))).toEqual(["GPTBot"]);
      robots(x, GPTBOT_AND_CCBOT);
      expect(blocked(await check(b, onX))).toEqual(["GPTBot", "CCBot"]);
      // a still holds its older reading (GPTBot only): older news, no change back, the page keeps the newer one.
      expect(blocked(await check(a, onX))).toEqual(["GPTBot", "CCBot"]);
      expect(blocked(await check(b, onX))).toEqual(["GPTBot", "CCBot"]);
      const changes = await eventsOf(onX);
      expect(changes.map((event) => [event.type, event.before, event.after])).toEqual([
        ["crawler_access_changed", { disallowed: ["GPTBot"] }, { disallowed: ["GPTBot", "CCBot"] }],
      ]);
      const [change] = changes;
      // Written in the transaction of b's check, the second check of the page.
      const { rows: checksOfX } = await db.query<{ id: string }>(
        "SELECT id FROM monitor_check WHERE monitor_id = $1 ORDER BY created_at, id",
        [onX],
      );
      expect(change?.check_id).toBe(checksOfX[1]?.id);

      // y: a robots.txt that can no longer be read is shown, is no change, and keeps the last known set.
      robots(y, GPTBOT_ONLY);
      const onY = await monitorOf(y);
      expect(blocked(await check(a, onY))).toEqual(["GPTBot"]);
      robots(y, "down", 503);
      const unread = await check(b, onY);
      expect(Object.values(unread ?? {}).every((access) => access === "unavailable")).toBe(true);
      // a's reading (GPTBot only) is older than b's unreadable one: the page still says unavailable.
      expect(Object.values((await check(a, onY)) ?? {}).every((access) => access === "unavailable")).toBe(true);
      expect(await eventsOf(onY)).toEqual([]);

      // z: unreadable at first, so no set; the first set read later is not a change either.
      robots(z, "down", 503);
      const onZ = await monitorOf(z);
      expect(Object.values((await check(a, onZ)) ?? {}).every((access) => access === "unavailable")).toBe(true);
      robots(z, GPTBOT_AND_CCBOT);
      expect(blocked(await check(b, onZ))).toEqual(["GPTBot", "CCBot"]);
      expect(await eventsOf(onZ)).toEqual([]);

      // The export: the last known set of each page (y's survives its unreadable robots.txt).
      const exported = await api(b, "GET", "/api/account/links/export?format=json", cookie);
      const cells = Object.fromEntries(
        (JSON.parse(exported.text) as Array<{ page_url: string; blocked_crawlers: string | null }>).map((row) => [
          row.page_url,
          row.blocked_crawlers,
        ]),
      );
      expect(cells).toEqual({ [x.url(PAGE)]: "GPTBot;CCBot", [y.url(PAGE)]: "GPTBot", [z.url(PAGE)]: "GPTBot;CCBot" });

      // Emailed once, delivered once to each endpoint: wait until the outboxes say so, then count.
      const subject = "AI crawlers now blocked: CCBot on 127.0.0.1/events/crawlers";
      await until("the email and both deliveries", async () => {
        const sent = await db.query("SELECT 1 FROM email_outbox WHERE subject = $1 AND status = 'sent'", [subject]);
        const delivered = await db.query(
          "SELECT 1 FROM webhook_delivery WHERE event_id = $1 AND status = 'delivered'",
          [change?.id],
        );
        return sent.rowCount === 1 && delivered.rowCount === 2 ? true : undefined;
      });
      const mails = smtp.received.filter((mail) => mail.subject === subject);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain("now blocks CCBot.");
      expect(mails[0]?.text).toContain("Blocked crawlers: GPTBot → GPTBot, CCBot");
      expect(smtp.received.filter((mail) => /crawlers/i.test(mail.subject ?? ""))).toHaveLength(1);

      const standard = receiver
        .to("/standard")
        .map((request) => JSON.parse(request.body) as { type: string; data: { event: Record<string, unknown> } });
      expect(standard.filter((body) => body.type === "crawler_access_changed")).toHaveLength(1);
      expect(standard.find((body) => body.type === "crawler_access_changed")?.data.event).toMatchObject({
        id: change?.id,
        monitorId: onX,
        trackedLinkId: null,
        before: { disallowed: ["GPTBot"] },
        after: { disallowed: ["GPTBot", "CCBot"] },
      });
      const slack = receiver.to("/slack/T000/B000/XXXX").map((request) => JSON.parse(request.body) as { text: string });
      expect(slack.map((body) => body.text)).toEqual([subject]);
    },
  );
});
