import os from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/account/webhooks/route";
import {
  DELETE as deleteWebhook,
  GET as getWebhook,
  PATCH as patchWebhook,
} from "@/app/api/account/webhooks/[id]/route";
import { POST as rotateSecret } from "@/app/api/account/webhooks/[id]/rotate-secret/route";
import { POST as testWebhook } from "@/app/api/account/webhooks/[id]/test/route";
import { GET as listDeliveries } from "@/app/api/account/webhooks/[id]/deliveries/route";
import { POST as retryDelivery } from "@/app/api/account/webhooks/[id]/deliveries/[deliveryId]/retry/route";
import type { Database } from "@/lib/db";
import { webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import { ALERT_TYPES } from "@/lib/schemas/alerts";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import {
  addPlacement,
  anchorChanged,
  AUTH_SECRET,
  DELIVERY_KEYS,
  deliveriesOf,
  makeEndpoint,
  recordEvents,
  WEBHOOK_KEYS,
} from "./webhook-setup";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";

/**
 * The webhook routes (webhooks.md "Endpoints") on PGlite and PostgreSQL: the guard's order and roles
 * for every route, the shapes, the secret shown once, the URL rules (INVALID_URL, BLOCKED_URL), the
 * limit of 10, tenant isolation, the audit log (never the secret), the ping and the manual retry
 * against a real local receiver.
 */

process.env.BETTER_AUTH_SECRET = AUTH_SECRET;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // Read by the process configuration on first use (below, by the first request).
  process.env.ALLOW_PRIVATE_HOSTS = receiver.allowEntry;
  process.env.DENY_HOSTS = "denied.example";
});
afterAll(async () => {
  await closeAll();
  await receiver?.close();
});

describe.each(BACKENDS)("webhook routes (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let stable: { id: string; secret: string };
  let failing: { id: string };
  let rotatable: { id: string };
  let failingDelivery = "";
  let deletable: string[] = [];
  // One receiver serves both backends: each run has its own paths.
  const failPath = `/fail-${backend}`;
  const rotatePath = `/rotate-${backend}`;

  beforeAll(async () => {
    receiver.on(failPath, { kind: "answer", status: 500, body: "receiver is down" });
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `wh-${backend}-a`);
    other = await makeTeam(database, `wh-${backend}-b`);
    stable = await makeEndpoint(team.admin.cookie, { url: receiver.url("/ok"), description: "Team inbox" });
    failing = await makeEndpoint(team.admin.cookie, {
      url: receiver.url(failPath),
      kind: "standard",
      types: ["anchor_changed"],
    });
    rotatable = await makeEndpoint(team.admin.cookie, { url: receiver.url("/rotatable") });
    for (let i = 0; i < 2; i += 1)
      deletable.push(
        (await makeEndpoint(team.owner.cookie, { url: receiver.url(`/deletable-${i}`), types: ["link_missing"] })).id,
      );
    const placement = await addPlacement(database, team.organizationId);
    await recordEvents(database, team.organizationId, [anchorChanged(placement)]);
    const [pending] = (await deliveriesOf(database, failing.id)).filter((row) => row.status === "pending");
    failingDelivery = pending?.id ?? "";
  }, 120_000);

  // A DELETE case names the first endpoint still there: the role table deletes as admin, then as owner.
  afterEach(async () => {
    const left = new Set(
      (await database.db.select({ id: webhookEndpoint.id }).from(webhookEndpoint)).map((row) => row.id),
    );
    deletable = deletable.filter((id) => left.has(id));
  });

  const ROUTES: RouteCase[] = [
    { name: "GET /webhooks", handler: listWebhooks, method: "GET", path: "/api/account/webhooks", minRole: "viewer" },
    {
      name: "POST /webhooks",
      handler: createWebhook,
      method: "POST",
      path: "/api/account/webhooks",
      minRole: "admin",
      body: () => ({ url: receiver.url("/created-by-role"), types: ["page_noindex"] }),
    },
    {
      name: "GET /webhooks/{id}",
      handler: getWebhook,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: stable.id }),
    },
    {
      name: "PATCH /webhooks/{id}",
      handler: patchWebhook,
      method: "PATCH",
      path: "/x",
      minRole: "admin",
      body: () => ({ description: `Renamed ${Math.random()}` }),
      params: () => ({ id: stable.id }),
    },
    {
      name: "DELETE /webhooks/{id}",
      handler: deleteWebhook,
      method: "DELETE",
      path: "/x",
      minRole: "admin",
      params: () => ({ id: deletable[0] ?? "none-left" }),
    },
    {
      name: "POST /webhooks/{id}/rotate-secret",
      handler: rotateSecret,
      method: "POST",
      path: "/x",
      minRole: "admin",
      params: () => ({ id: rotatable.id }),
    },
    {
      name: "POST /webhooks/{id}/test",
      handler: testWebhook,
      method: "POST",
      path: "/x",
      minRole: "admin",
      params: () => ({ id: stable.id }),
    },
    {
      name: "GET /webhooks/{id}/deliveries",
      handler: listDeliveries,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: stable.id }),
    },
    {
      name: "POST /webhooks/{id}/deliveries/{deliveryId}/retry",
      handler: retryDelivery,
      method: "POST",
      path: "/x",
      minRole: "admin",
      params: () => ({ id: failing.id, deliveryId: failingDelivery }),
    },
  ];

  describe("the guard, for every route", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
  });

  describe("endpoints", () => {
    it("POST answers 201 with the Webhook and a whsec_ secret; reads never show the secret", async () => {
      const created = await call(createWebhook, "POST", "/x", {
        cookie: team.owner.cookie,
        body: { url: receiver.url("/shape"), kind: "slack", description: "  #seo-alerts  " },
      });
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.json ?? {}).sort()).toEqual([...WEBHOOK_KEYS, "secret"].sort());
      expect(created.json).toMatchObject({
        url: receiver.url("/shape"),
        kind: "slack",
        types: [...ALERT_TYPES],
        enabled: true,
        description: "#seo-alerts",
        lastDeliveryAt: null,
        lastStatus: null,
        consecutiveFailures: 0,
      });
      const secret = String(created.json?.secret);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
      const id = String(created.json?.id);
      const one = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id } });
      expect(Object.keys(one.json ?? {}).sort()).toEqual(WEBHOOK_KEYS);
      const list = await call(listWebhooks, "GET", "/x", { cookie: team.viewer.cookie });
      expect(list.text).not.toContain(secret.slice(6, 30));
      // Stored sealed, not as given.
      const [row] = await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id));
      expect(row?.secretCiphertext).not.toContain(secret.slice(6, 30));
      expect((await call(deleteWebhook, "DELETE", "/x", { cookie: team.owner.cookie, params: { id } })).status).toBe(
        204,
      );
    });

    it("a Slack URL is whole only in the create answer: every read, PATCH and rotate answer, delivery and audit row masks it", async () => {
      const secretPart = "T0SECRET/B0SECRET/XyZsEcReTkEy";
      const whole = `https://hooks.slack.com/services/${secretPart}`;
      const masked = "https://hooks.slack.com/services/…";
      const created = await call(createWebhook, "POST", "/x", {
        cookie: team.admin.cookie,
        body: { url: whole, kind: "slack", description: "Slack, masked" },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.json?.url).toBe(whole);
      const id = String(created.json?.id);
      const stored = async () =>
        (
          await database.db.select({ url: webhookEndpoint.url }).from(webhookEndpoint).where(eq(webhookEndpoint.id, id))
        )[0]?.url;
      const one = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id } });
      expect(one.json?.url).toBe(masked);
      const list = await call(listWebhooks, "GET", "/x?limit=100", { cookie: team.viewer.cookie });
      expect((list.json?.items as Array<{ id: string; url: string }>).find((item) => item.id === id)?.url).toBe(masked);
      // A standard endpoint is the team's own receiver: it stays whole.
      expect((list.json?.items as Array<{ id: string; url: string }>).find((item) => item.id === stable.id)?.url).toBe(
        receiver.url("/ok"),
      );
      const renamed = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id },
        body: { description: "renamed" },
      });
      expect(renamed.json).toMatchObject({ url: masked, description: "renamed" });
      // Sending the masked URL back (a client that PATCHes what it read) changes nothing, and is no change of url.
      const echoed = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id },
        body: { url: masked, description: "echoed" },
      });
      expect(echoed.status, echoed.text).toBe(200);
      expect(echoed.json).toMatchObject({ url: masked, description: "echoed" });
      expect(await stored()).toBe(whole);
      // Any other masked text is a masked URL pasted in place of the real one: refused, never stored.
      for (const pasted of [
        "https://hooks.slack.com/services/T0SECRET/…",
        "https://hooks.slack.com/…",
        "https://hooks.slack.com/services/%E2%80%A6",
      ]) {
        expectError(
          await call(patchWebhook, "PATCH", "/x", { cookie: team.admin.cookie, params: { id }, body: { url: pasted } }),
          400,
          "INVALID_URL",
        );
        expectError(
          await call(createWebhook, "POST", "/x", { cookie: team.admin.cookie, body: { url: pasted, kind: "slack" } }),
          400,
          "INVALID_URL",
        );
      }
      expect(await stored()).toBe(whole);
      const rotated = await call(rotateSecret, "POST", "/x", { cookie: team.admin.cookie, params: { id } });
      expect(rotated.json?.url).toBe(masked);
      // A real change of url is checked and stored, and masked in the answer too.
      const moved = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id },
        body: { url: `${whole}Moved` },
      });
      expect(moved.json?.url).toBe(masked);
      expect(await stored()).toBe(`${whole}Moved`);
      const audit = await call(auditLog, "GET", "/x?limit=100", { cookie: team.admin.cookie });
      const updates = (
        audit.json?.items as Array<{ action: string; target: { id: string } | null; details: { changed?: string[] } }>
      ).filter((item) => item.action === "webhook.updated" && item.target?.id === id);
      // Newest first: the move, then the echo and the rename, which changed no url.
      expect(updates.map((item) => item.details.changed)).toEqual([["url"], ["description"], ["description"]]);
      for (const answer of [one, list, renamed, echoed, rotated, moved, audit])
        expect(answer.text).not.toContain("SECRET");
      expect((await call(deleteWebhook, "DELETE", "/x", { cookie: team.admin.cookie, params: { id } })).status).toBe(
        204,
      );
    });

    it("a Slack endpoint's delivery error never repeats its URL (a redirect's Location to itself)", async () => {
      const path = `/slack-${backend}/T0SECRET/B0SECRET/XyZsEcReTkEy`;
      receiver.on(path, { kind: "answer", status: 301, headers: { location: receiver.url(path) } });
      const made = await makeEndpoint(team.admin.cookie, { url: receiver.url(path), kind: "slack" });
      const ping = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: made.id } });
      expect(ping.json).toMatchObject({ status: "failed", responseStatus: 301 });
      expect(String(ping.json?.error)).toContain(`Location: ${receiver.origin}/…`);
      const deliveries = await call(listDeliveries, "GET", "/x", {
        cookie: team.viewer.cookie,
        params: { id: made.id },
      });
      const webhook = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id: made.id } });
      expect(webhook.json?.url).toBe(`${receiver.origin}/…`);
      for (const answer of [ping, deliveries, webhook]) expect(answer.text).not.toContain("SECRET");
      await call(deleteWebhook, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: made.id } });
    });

    it.each([
      ["http to a public host", "http://hooks.example.com/linklens", 400, "INVALID_URL"],
      ["credentials", "https://user:pw@hooks.example.com/", 400, "INVALID_URL"],
      ["localhost", "https://localhost/hook", 400, "INVALID_URL"],
      ["a private IP", "https://192.168.1.20/hook", 400, "INVALID_URL"],
      ["a port other than 443", "https://hooks.example.com:8443/", 400, "INVALID_URL"],
      ["over 2,048 characters", `https://hooks.example.com/${"a".repeat(2100)}`, 400, "INVALID_URL"],
      ["a host on the deny list", "https://hooks.denied.example/", 403, "BLOCKED_URL"],
      [
        "a name that resolves to this machine (loopback or private)",
        `https://${os.hostname()}/hook`,
        403,
        "BLOCKED_URL",
      ],
    ])("a URL with %s is %i %s, on creation and on change", async (_name, url, status, code) => {
      expectError(await call(createWebhook, "POST", "/x", { cookie: team.admin.cookie, body: { url } }), status, code);
      expectError(
        await call(patchWebhook, "PATCH", "/x", {
          cookie: team.admin.cookie,
          body: { url },
          params: { id: stable.id },
        }),
        status,
        code,
      );
    });

    it.each([
      ["an unknown kind", { url: "https://hooks.example.com/", kind: "whatsapp" }, /^kind: /],
      ["an unknown type", { url: "https://hooks.example.com/", types: ["link_vanished"] }, /^types\.0: /],
      ["an extra field", { url: "https://hooks.example.com/", secret: "whsec_mine" }, /secret/],
      ["a description with a line break", { url: "https://hooks.example.com/", description: "a\nb" }, /^description: /],
      ["no url", { kind: "slack" }, /^url: /],
    ])("a body with %s is 400 naming the field", async (_name, body, message) => {
      const result = await call(createWebhook, "POST", "/x", { cookie: team.admin.cookie, body });
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(message);
    });

    it("a public https URL that does not resolve yet is accepted (each delivery resolves it again)", async () => {
      const result = await call(createWebhook, "POST", "/x", {
        cookie: other.admin.cookie,
        body: { url: "https://hooks.slack.com/services/T000/B000/XXXX", kind: "slack" },
      });
      expect(result.status, result.text).toBe(201);
      expect(
        (
          await call(deleteWebhook, "DELETE", "/x", {
            cookie: other.admin.cookie,
            params: { id: String(result.json?.id) },
          })
        ).status,
      ).toBe(204);
    });

    it("an organization has at most 10 endpoints: the 11th is 409", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i += 1)
        ids.push((await makeEndpoint(other.owner.cookie, { url: receiver.url(`/ten-${i}`) })).id);
      const eleventh = await call(createWebhook, "POST", "/x", {
        cookie: other.owner.cookie,
        body: { url: receiver.url("/eleven") },
      });
      expectError(eleventh, 409, "CONFLICT");
      expect(String(eleventh.json?.error)).toContain("10");
      for (const id of ids) await call(deleteWebhook, "DELETE", "/x", { cookie: other.owner.cookie, params: { id } });
    });

    it("PATCH changes url, types, enabled and description; kind cannot change; an empty PATCH is 400", async () => {
      const made = await makeEndpoint(team.owner.cookie, { url: receiver.url("/patch-me") });
      const changed = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: made.id },
        body: {
          url: receiver.url("/patched"),
          types: ["link_missing", "link_broken"],
          description: "moved",
          enabled: false,
        },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.json).toMatchObject({
        url: receiver.url("/patched"),
        types: ["link_missing", "link_broken"],
        description: "moved",
        enabled: false,
      });
      expectError(
        await call(patchWebhook, "PATCH", "/x", {
          cookie: team.admin.cookie,
          params: { id: made.id },
          body: { kind: "slack" },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(patchWebhook, "PATCH", "/x", { cookie: team.admin.cookie, params: { id: made.id }, body: {} }),
        400,
        "INVALID_REQUEST",
      );
      await call(deleteWebhook, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: made.id } });
    });

    it("rotate-secret answers a new secret; the old one stops verifying the next delivery at once", async () => {
      const made = await makeEndpoint(team.owner.cookie, { url: receiver.url(rotatePath) });
      const rotated = await call(rotateSecret, "POST", "/x", { cookie: team.admin.cookie, params: { id: made.id } });
      expect(rotated.status, rotated.text).toBe(200);
      const secret = String(rotated.json?.secret);
      expect(secret).not.toBe(made.secret);
      const ping = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: made.id } });
      expect(ping.json).toMatchObject({ status: "delivered" });
      const [request] = receiver.to(rotatePath);
      expect(new Webhook(secret).verify(request?.body ?? "", request?.headers ?? {})).toMatchObject({ type: "ping" });
      expect(() => new Webhook(made.secret).verify(request?.body ?? "", request?.headers ?? {})).toThrow();
      await call(deleteWebhook, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: made.id } });
    });
  });

  describe("test ping, deliveries and retry", () => {
    it("the ping is signed, its data is { organization, appUrl }, and the answer is the finished delivery", async () => {
      const before = receiver.to("/ok").length;
      const result = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: stable.id } });
      expect(result.status, result.text).toBe(200);
      expect(Object.keys(result.json ?? {}).sort()).toEqual(DELIVERY_KEYS);
      expect(result.json).toMatchObject({
        type: "ping",
        eventId: null,
        attempt: 1,
        status: "delivered",
        responseStatus: 200,
        responseBody: "ok",
        error: null,
        nextAttemptAt: null,
      });
      const request = receiver.to("/ok")[before];
      const body = new Webhook(stable.secret).verify(request?.body ?? "", request?.headers ?? {}) as {
        type: string;
        data: unknown;
      };
      expect(body).toMatchObject({
        type: "ping",
        data: { organization: { id: team.organizationId }, appUrl: "http://localhost:3000/app/webhooks" },
      });
      expect(request?.headers["webhook-id"]).toBe(`msg_${String(result.json?.id)}`);
      const endpoint = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id: stable.id } });
      expect(endpoint.json).toMatchObject({ lastStatus: 200, consecutiveFailures: 0 });
      expect(endpoint.json?.lastDeliveryAt).toBeTypeOf("string");
    });

    it("a failed ping is failed at once (never retried) and does not count as a failure of the endpoint", async () => {
      const result = await call(testWebhook, "POST", "/x", { cookie: team.admin.cookie, params: { id: failing.id } });
      expect(result.json).toMatchObject({
        type: "ping",
        status: "failed",
        responseStatus: 500,
        responseBody: "receiver is down",
        nextAttemptAt: null,
      });
      expect(String(result.json?.error)).toContain("HTTP 500");
      const [row] = await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, failing.id));
      const pings = (await deliveriesOf(database, failing.id)).filter((d) => d.type === "ping");
      expect(pings.every((d) => d.status === "failed" && d.attempts === 1)).toBe(true);
      expect(row?.lastStatus).toBe(500);
      // Only the event's retries above count (the role table retried it as admin and owner).
      expect(row?.consecutiveFailures).toBe(2);
      // A ping is never retried, not even by hand.
      const retried = await call(retryDelivery, "POST", "/x", {
        cookie: team.admin.cookie,
        params: { id: failing.id, deliveryId: String(result.json?.id) },
      });
      expectError(retried, 409, "CONFLICT");
      expect(String(retried.json?.error)).toContain("never retried");
    });

    it("deliveries are listed newest first with the exact fields; a manual retry keeps the webhook-id and answers the finished attempt", async () => {
      const list = await call(listDeliveries, "GET", "/x?limit=100", {
        cookie: team.viewer.cookie,
        params: { id: failing.id },
      });
      expect(list.status, list.text).toBe(200);
      const items = (list.json as { items: Array<Record<string, unknown>> }).items;
      for (const item of items) expect(Object.keys(item).sort()).toEqual(DELIVERY_KEYS);
      const times = items.map((item) => String(item.createdAt));
      expect([...times].sort().reverse()).toEqual(times);
      const event = items.find((item) => item.id === failingDelivery);
      expect(event).toMatchObject({ type: "anchor_changed", status: "pending", responseStatus: 500, attempt: 2 });
      expect(event?.nextAttemptAt).toBeTypeOf("string");
      const ids = new Set(
        receiver
          .to(failPath)
          .filter((r) => r.body.includes("anchor_changed"))
          .map((r) => r.headers["webhook-id"]),
      );
      expect([...ids]).toEqual([`msg_${failingDelivery}`]);
      receiver.on(failPath, { kind: "answer", status: 202, body: "accepted now" });
      const retried = await call(retryDelivery, "POST", "/x", {
        cookie: team.admin.cookie,
        params: { id: failing.id, deliveryId: failingDelivery },
      });
      expect(retried.json).toMatchObject({
        id: failingDelivery,
        status: "delivered",
        attempt: 3,
        responseStatus: 202,
        responseBody: "accepted now",
        error: null,
        nextAttemptAt: null,
      });
      expect(receiver.to(failPath).at(-1)?.headers["webhook-id"]).toBe(`msg_${failingDelivery}`);
      // A success resets the endpoint's count of failures.
      const endpoint = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id: failing.id } });
      expect(endpoint.json).toMatchObject({ consecutiveFailures: 0, lastStatus: 202 });
      expectError(
        await call(retryDelivery, "POST", "/x", {
          cookie: team.admin.cookie,
          params: { id: failing.id, deliveryId: failingDelivery },
        }),
        409,
        "CONFLICT",
      );
    });

    it("a delivery under way (claimed by a sender) cannot be retried at the same moment: 409", async () => {
      const placement = await addPlacement(database, team.organizationId);
      await recordEvents(database, team.organizationId, [anchorChanged(placement, "again")]);
      const [row] = (await deliveriesOf(database, failing.id)).filter((d) => d.status === "pending");
      await database.db
        .update(webhookDelivery)
        .set({ status: "sending", leaseUntil: new Date(Date.now() + 60_000) })
        .where(eq(webhookDelivery.id, row?.id ?? ""));
      expectError(
        await call(retryDelivery, "POST", "/x", {
          cookie: team.admin.cookie,
          params: { id: failing.id, deliveryId: row?.id ?? "" },
        }),
        409,
        "CONFLICT",
      );
      expectError(
        await call(retryDelivery, "POST", "/x", {
          cookie: team.admin.cookie,
          params: { id: failing.id, deliveryId: "no-such-delivery" },
        }),
        404,
        "NOT_FOUND",
      );
    });
  });

  describe("tenant isolation", () => {
    it("another organization's endpoints and deliveries are 404 on every route, and its lists show none of ours", async () => {
      const foreign = { id: stable.id };
      const as = { cookie: other.owner.cookie };
      expectError(await call(getWebhook, "GET", "/x", { ...as, params: foreign }), 404, "NOT_FOUND");
      expectError(
        await call(patchWebhook, "PATCH", "/x", { ...as, params: foreign, body: { enabled: false } }),
        404,
        "NOT_FOUND",
      );
      expectError(await call(deleteWebhook, "DELETE", "/x", { ...as, params: foreign }), 404, "NOT_FOUND");
      expectError(await call(rotateSecret, "POST", "/x", { ...as, params: foreign }), 404, "NOT_FOUND");
      expectError(await call(testWebhook, "POST", "/x", { ...as, params: foreign }), 404, "NOT_FOUND");
      expectError(await call(listDeliveries, "GET", "/x", { ...as, params: foreign }), 404, "NOT_FOUND");
      expectError(
        await call(retryDelivery, "POST", "/x", { ...as, params: { id: failing.id, deliveryId: failingDelivery } }),
        404,
        "NOT_FOUND",
      );
      // Their own endpoint with our delivery's id: still unknown.
      const theirs = await makeEndpoint(other.owner.cookie, { url: receiver.url("/theirs") });
      expectError(
        await call(retryDelivery, "POST", "/x", { ...as, params: { id: theirs.id, deliveryId: failingDelivery } }),
        404,
        "NOT_FOUND",
      );
      const list = await call(listWebhooks, "GET", "/x", { ...as });
      expect(list.text).not.toContain(stable.id);
      expect(list.text).not.toContain("receiver is down");
    });
  });

  describe("audit log", () => {
    it("records created, updated, deleted and secret_rotated, never with the secret", async () => {
      const log = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.admin.cookie });
      const items = (log.json as { items: Array<{ action: string; target: { type: string } | null }> }).items;
      const actions = new Set(items.filter((item) => item.target?.type === "webhook").map((item) => item.action));
      expect([...actions].sort()).toEqual([
        "webhook.created",
        "webhook.deleted",
        "webhook.secret_rotated",
        "webhook.updated",
      ]);
      expect(log.text).not.toMatch(/whsec_/);
      expect(log.text).not.toContain(stable.secret.slice(6, 30));
    });
  });
});
