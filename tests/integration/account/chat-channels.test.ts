import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/account/webhooks/route";
import { GET as getWebhook, PATCH as patchWebhook } from "@/app/api/account/webhooks/[id]/route";
import { POST as testWebhook } from "@/app/api/account/webhooks/[id]/test/route";
import type { Database } from "@/lib/db";
import { outbox, webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import { WEBHOOK_KIND_INFO, type WebhookKind } from "@/lib/schemas/webhook-kinds";
import { deliverDueWebhooks } from "@/lib/webhooks/sender";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import {
  addPlacement,
  anchorChanged,
  AUTH_SECRET,
  clock,
  deliveriesOf,
  makeEndpoint,
  recordEvents,
  senderDeps,
} from "./webhook-setup";
import { chatService, parseTelegramHtml, type ChatService } from "../../helpers/chat-receivers";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";

/**
 * The chat kinds (reports-and-channels.md "Chat channels") through the routes and the real delivery
 * path, on PGlite and PostgreSQL, against a local receiver that answers as each service does
 * (tests/helpers/chat-receivers.ts: a body outside the service's rules is its 4xx, so a failed
 * delivery): each kind's URL rule and its mask after creation, a Slack endpoint saved before Slack's
 * rule, an alert with hostile page text delivered once and accepted, Telegram's `"ok": false` and
 * Teams' in-band failure as failures retried on the schedule, pings, and disabling after 8 attempts.
 */

process.env.BETTER_AUTH_SECRET = AUTH_SECRET;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  process.env.ALLOW_PRIVATE_HOSTS = receiver.allowEntry;
});
afterAll(async () => {
  await closeAll();
  await receiver?.close();
});

const CHAT_KINDS = ["discord", "teams", "google_chat", "telegram"] as const satisfies readonly (WebhookKind &
  ChatService)[];
type ChatKind = (typeof CHAT_KINDS)[number];

/** Each service's URL, as the admin pastes it (`SECRET` where the key is), and as it is shown afterwards. */
const SERVICE: Record<ChatKind, { url: string; masked: string }> = {
  discord: {
    url: "https://discord.com/api/webhooks/1234567890/tokenSECRET",
    masked: "https://discord.com/api/webhooks/…",
  },
  teams: {
    url: "https://prod-12.westus.logic.azure.com/workflows/SECRET/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SECRET",
    masked: "https://prod-12.westus.logic.azure.com/…",
  },
  google_chat: {
    url: "https://chat.googleapis.com/v1/spaces/AAAASECRET/messages?key=AIzaSECRET&token=SECRET",
    masked: "https://chat.googleapis.com/v1/spaces/…",
  },
  telegram: {
    url: "https://api.telegram.org/bot7000000001:AAHSECRET/sendMessage?chat_id=-100SECRET",
    masked: "https://api.telegram.org/bot…",
  },
};

/** The same URL forms on the local receiver, under `where` (each test its own). */
const LOCAL: Record<ChatKind, (where: string) => { path: string; query: string }> = {
  discord: (where) => ({ path: `/${where}/api/webhooks/1234567890/tokenSECRET`, query: "" }),
  teams: (where) => ({ path: `/${where}/workflows/SECRET/triggers/manual/paths/invoke`, query: "?sig=SECRET" }),
  google_chat: (where) => ({ path: `/${where}/v1/spaces/AAAA/messages`, query: "?key=K&token=SECRET" }),
  telegram: (where) => ({ path: `/${where}/bot7000000001:SECRET/sendMessage`, query: "?chat_id=42" }),
};
const SUCCESS: Record<ChatKind, number> = { discord: 204, teams: 202, google_chat: 200, telegram: 200 };

/** Page text that would mention, link or format in every chat, and far longer than any allows. */
const HOSTILE =
  "@everyone <@123456789012345678> <users/all> <!channel> [Click](https://evil.example) **bold** *b* _i_ ~s~ `c` <b>x</b> &amp; {{DATE(2017-02-14T06:08:39Z)}} @admin /start ";
const LONG_ANCHOR = HOSTILE.repeat(60).slice(0, 10_000);

/** What each service would show of it if it were not escaped: none of it may be in the body as sent. */
const UNESCAPED: Record<ChatKind, RegExp> = {
  discord: /(?<!\\)@everyone|(?<!\\)<@\d|(?<!\\)\[Click(?<!\\)\]\(/,
  teams: /(?<!\\)\[Click(?<!\\)\]\(|(?<!\\)\*\*bold|(?<!\\)\{\{DATE/,
  google_chat: /<users\/all>|<!channel>|(?<![A-Za-z])\*b\*|_i_|~s~|`c`/,
  telegram: /<b>x<\/b>|<users|<!channel|@admin|\/start/,
};

const MIN = 60_000;

describe.each(BACKENDS)("chat channels (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const clk = clock(new Date("2026-11-23T12:00:00.000Z"));
  const pass = () => deliverDueWebhooks(senderDeps(database, clk.now));
  const row = async (id: string) =>
    (await database.db.select().from(webhookDelivery).where(eq(webhookDelivery.id, id)))[0];

  /** An endpoint of `kind` on the local receiver at `name`, answering as the service does. */
  async function chatEndpoint(kind: ChatKind, name: string, behaves = true) {
    const { path, query } = LOCAL[kind](`${backend}-${name}`);
    if (behaves) receiver.on(path, chatService(kind));
    const endpoint = await makeEndpoint(team.admin.cookie, { url: receiver.url(`${path}${query}`), kind });
    return { ...endpoint, path };
  }
  async function oneEvent(anchor = "Best shoes") {
    const placement = await addPlacement(database, team.organizationId);
    await recordEvents(database, team.organizationId, [anchorChanged(placement, anchor)], clk.now());
    return placement;
  }

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `chat-${backend}`);
  }, 120_000);
  afterEach(async () => {
    await database.db.delete(webhookEndpoint);
  });

  describe("URLs", () => {
    it.each(CHAT_KINDS)(
      "%s: its service's URL is whole in the create answer only; another host is 400 INVALID_URL with the form",
      async (kind) => {
        const created = await call(createWebhook, "POST", "/x", {
          cookie: team.admin.cookie,
          body: { url: SERVICE[kind].url, kind },
        });
        expect(created.status, created.text).toBe(201);
        expect(created.json?.url).toBe(new URL(SERVICE[kind].url).href);
        const id = String(created.json?.id);
        const one = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id } });
        expect(one.json?.url).toBe(SERVICE[kind].masked);
        const list = await call(listWebhooks, "GET", "/x", { cookie: team.viewer.cookie });
        // The masked form sent back is no change; any other masked text is refused.
        const echoed = await call(patchWebhook, "PATCH", "/x", {
          cookie: team.admin.cookie,
          params: { id },
          body: { url: SERVICE[kind].masked, description: "echoed" },
        });
        expect(echoed.json).toMatchObject({ url: SERVICE[kind].masked, description: "echoed" });
        const audit = await call(auditLog, "GET", "/x?limit=100", { cookie: team.admin.cookie });
        for (const answer of [one, list, echoed, audit]) expect(answer.text).not.toContain("SECRET");

        const elsewhere = await call(createWebhook, "POST", "/x", {
          cookie: team.admin.cookie,
          body: { url: "https://hooks.example.com/api/webhooks/1/SECRET", kind },
        });
        expectError(elsewhere, 400, "INVALID_URL");
        expect(String(elsewhere.json?.error)).toBe(`This is not a ${WEBHOOK_KIND_INFO[kind].label} webhook URL.`);
        expect(String(elsewhere.json?.hint)).toContain(WEBHOOK_KIND_INFO[kind].urlHint);
        // A change of url is held to the same rule.
        expectError(
          await call(patchWebhook, "PATCH", "/x", {
            cookie: team.admin.cookie,
            params: { id },
            body: { url: "https://hooks.example.com/other" },
          }),
          400,
          "INVALID_URL",
        );
      },
    );

    it("slack: a URL of another host is refused now; an endpoint saved before keeps its URL and its deliveries until its url changes", async () => {
      expectError(
        await call(createWebhook, "POST", "/x", {
          cookie: team.admin.cookie,
          body: { url: "https://relay.example.com/services/T/B/X", kind: "slack" },
        }),
        400,
        "INVALID_URL",
      );
      // An endpoint saved when Slack took any URL: a relay (here a local one) in front of Slack.
      const relay = `/${backend}-relay/slack/T0/B0/SECRET`;
      const saved = await makeEndpoint(team.admin.cookie, { url: receiver.url(relay), kind: "slack" });
      const legacy = "https://relay.example.com/slack/T0/B0/SECRET";
      await database.db.update(webhookEndpoint).set({ url: legacy }).where(eq(webhookEndpoint.id, saved.id));
      const stored = async () =>
        (await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, saved.id)))[0]?.url;
      const renamed = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: saved.id },
        body: { description: "relay", url: "https://relay.example.com/…" },
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.json).toMatchObject({ url: "https://relay.example.com/…", description: "relay" });
      expect(await stored()).toBe(legacy);
      const moved = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: saved.id },
        body: { url: "https://relay.example.com/slack/T0/B0/OTHER" },
      });
      expectError(moved, 400, "INVALID_URL");
      expect(String(moved.json?.hint)).toBe("A Slack webhook URL looks like https://hooks.slack.com/services/…");
      expect(await stored()).toBe(legacy);
      // Delivery reads the stored URL and never the rule: the saved relay still gets its alerts.
      await database.db
        .update(webhookEndpoint)
        .set({ url: receiver.url(relay) })
        .where(eq(webhookEndpoint.id, saved.id));
      await oneEvent();
      expect(await pass()).toMatchObject({ attempted: 1, delivered: 1 });
      expect(receiver.to(relay)).toHaveLength(1);
      const toSlack = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: saved.id },
        body: { url: "https://hooks.slack.com/services/T0/B0/NEWKEY" },
      });
      expect(toSlack.json).toMatchObject({ url: "https://hooks.slack.com/services/…" });
    });
  });

  describe("delivery through the real path", () => {
    it.each(CHAT_KINDS)(
      "%s: a 10,000-character hostile anchor is delivered once, taken by the service, and forms nothing",
      async (kind) => {
        const endpoint = await chatEndpoint(kind, "hostile");
        await oneEvent(LONG_ANCHOR);
        expect(await pass()).toMatchObject({ attempted: 1, delivered: 1 });
        const [delivery] = await deliveriesOf(database, endpoint.id);
        expect(delivery).toMatchObject({ status: "delivered", attempts: 1, responseStatus: SUCCESS[kind] });
        const [request] = receiver.to(endpoint.path);
        expect(request?.headers["content-type"]).toBe("application/json");
        expect(request?.headers["webhook-id"]).toBe(`msg_${delivery?.id}`);
        const raw = request?.body ?? "";
        expect(raw).not.toMatch(UNESCAPED[kind]);
        // The sentence of the email's subject, and the link to the monitor.
        expect(raw).toContain("Anchor text changed");
        expect(raw).toContain(`/app/monitors/`);
        if (kind === "telegram") {
          const parsed = parseTelegramHtml((JSON.parse(raw) as { text: string }).text);
          // The sentence and four labels in bold; the page, the link and the monitor as links.
          expect("error" in parsed ? parsed.error : parsed.tags.map((tag) => tag.name).sort()).toEqual([
            "a",
            "a",
            "a",
            "b",
            "b",
            "b",
            "b",
            "b",
          ]);
        }
      },
    );

    it.each(CHAT_KINDS)("%s: a test ping is rendered for the service and taken", async (kind) => {
      const endpoint = await chatEndpoint(kind, "ping");
      const ping = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id } });
      expect(ping.json).toMatchObject({ type: "ping", status: "delivered", responseStatus: SUCCESS[kind] });
      expect(receiver.to(endpoint.path)[0]?.body).toContain("this channel will get");
    });

    it('telegram: a 200 without "ok": true is a failure, its description kept (1 KiB), retried a minute later with the same webhook-id', async () => {
      const endpoint = await chatEndpoint("telegram", "not-ok", false);
      const description = `Bad Request: chat not found ${"x".repeat(2000)}`;
      receiver.on(endpoint.path, {
        kind: "answer",
        status: 200,
        body: JSON.stringify({ ok: false, error_code: 400, description }),
      });
      await oneEvent();
      await pass();
      const [delivery] = await deliveriesOf(database, endpoint.id);
      expect(delivery).toMatchObject({
        status: "pending",
        attempts: 1,
        responseStatus: 200,
        error: "HTTP 200, but the answer does not say the message was taken (see the answer).",
        nextAttemptAt: new Date(clk.now().getTime() + MIN),
      });
      expect(delivery?.responseBody).toContain(
        '"ok":false,"error_code":400,"description":"Bad Request: chat not found',
      );
      expect(Buffer.byteLength(delivery?.responseBody ?? "")).toBeLessThanOrEqual(1024);
      // Telegram's own refusal (400, ok: false) is a failure too; then the service takes it.
      receiver.on(endpoint.path, {
        kind: "answer",
        status: 400,
        body: '{"ok":false,"error_code":400,"description":"Bad Request: not enough rights to send text messages to the chat"}',
      });
      clk.advance(MIN);
      await pass();
      expect(await row(delivery?.id ?? "")).toMatchObject({
        status: "pending",
        attempts: 2,
        responseStatus: 400,
        error: "HTTP 400: the receiver did not accept the delivery.",
      });
      receiver.on(endpoint.path, chatService("telegram"));
      clk.advance(5 * MIN);
      await pass();
      // The service's answer echoes the message (over 1 KiB): its leading "ok": true counts.
      expect(await row(delivery?.id ?? "")).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 200 });
      const ids = receiver.to(endpoint.path).map((request) => request.headers["webhook-id"]);
      expect(ids).toEqual([`msg_${delivery?.id}`, `msg_${delivery?.id}`, `msg_${delivery?.id}`]);
    });

    it("teams: the 200 an incoming webhook answers when Teams refused the card is a failure", async () => {
      const endpoint = await chatEndpoint("teams", "in-band", false);
      receiver.on(endpoint.path, {
        kind: "answer",
        status: 200,
        body: "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 413",
      });
      await oneEvent();
      await pass();
      const [delivery] = await deliveriesOf(database, endpoint.id);
      expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: 200 });
      expect(delivery?.error).toMatch(/^HTTP 200, but the answer does not say the message was taken/);
    });

    it("telegram: a delivery error never repeats the bot token (a redirect's Location to itself)", async () => {
      const path = `/bot7000000001:SECRET${backend}/sendMessage`;
      receiver.on(path, { kind: "answer", status: 301, headers: { location: receiver.url(`${path}?chat_id=42`) } });
      const endpoint = await makeEndpoint(team.admin.cookie, {
        url: receiver.url(`${path}?chat_id=42`),
        kind: "telegram",
      });
      const ping = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id } });
      expect(ping.json).toMatchObject({ status: "failed", responseStatus: 301 });
      expect(String(ping.json?.error)).toContain(`Location: ${receiver.origin}/bot…`);
      expect(ping.text).not.toContain("SECRET");
    });

    it.each(CHAT_KINDS)(
      "%s: a receiver down for all 8 attempts disables the endpoint and the admins get an email",
      async (kind) => {
        const endpoint = await chatEndpoint(kind, "down", false);
        receiver.on(endpoint.path, { kind: "answer", status: 503, body: "maintenance" });
        await oneEvent();
        const start = clk.now().getTime();
        let elapsed = 0;
        for (const gap of [0, 1, 5, 30, 120, 480, 1440, 1440]) {
          elapsed += gap;
          clk.set(new Date(start + elapsed * MIN));
          expect((await pass()).attempted).toBe(1);
        }
        const [view] = await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id));
        expect(view).toMatchObject({ enabled: false, consecutiveFailures: 8 });
        const emails = await database.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.kind, "webhook_disabled"), eq(outbox.organizationId, team.organizationId)));
        expect(emails.some((email) => email.text.includes("HTTP 503"))).toBe(true);
        // The email names the host only: never the path, which holds the key.
        for (const email of emails) expect(`${email.subject}\n${email.text}`).not.toContain("SECRET");
        await database.db.delete(outbox).where(eq(outbox.kind, "webhook_disabled"));
      },
    );
  });
});
