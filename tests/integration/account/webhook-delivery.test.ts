import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import {
  DELETE as deleteWebhook,
  GET as getWebhook,
  PATCH as patchWebhook,
} from "@/app/api/account/webhooks/[id]/route";
import type { Database } from "@/lib/db";
import { outbox, webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import type { Resolver } from "@/lib/net/resolve";
import { claimDueDeliveries } from "@/lib/webhooks/claim";
import { deliverDueWebhooks, startWebhookSender } from "@/lib/webhooks/sender";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { makeSoloOwner, makeTeam, type Person, type Team } from "./team-setup";
import {
  addPlacement,
  anchorChanged,
  AUTH_SECRET,
  clock,
  deliveriesOf,
  makeEndpoint,
  pageUnreachable,
  recordEvents,
  senderDeps,
  verifyAt,
} from "./webhook-setup";
import {
  startTripwire,
  startWebhookReceiver,
  type Tripwire,
  type WebhookReceiver,
} from "../../helpers/webhook-receiver";

/**
 * Delivery (webhooks.md "Delivery") against real local receivers, one behaviour each, on PGlite and
 * PostgreSQL: the outbox written with the event, signing checked by the standardwebhooks verifier,
 * Slack escaping, every kind of bad receiver, the retry schedule on a moved clock, disabling with an
 * email to the admins, deletion and rotation while deliveries wait, DNS rebinding, one claim per
 * delivery, and fairness between endpoints and between organizations.
 */

process.env.BETTER_AUTH_SECRET = AUTH_SECRET;
let receiver: WebhookReceiver;
let tripwire: Tripwire;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  tripwire = await startTripwire();
  process.env.ALLOW_PRIVATE_HOSTS = receiver.allowEntry;
});
afterAll(async () => {
  await closeAll();
  await receiver?.close();
  await tripwire?.close();
});

const MIN = 60_000;

describe.each(BACKENDS)("webhook delivery (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const clk = clock(new Date("2026-11-23T12:00:00.000Z"));
  const path = (name: string) => `/${backend}/${name}`;
  const deps = (over: Parameters<typeof senderDeps>[2] = {}) => senderDeps(database, clk.now, over);
  const pass = (over: Parameters<typeof senderDeps>[2] = {}) => deliverDueWebhooks(deps(over));

  /** An endpoint at `name` (made by an admin through the route) and one anchor_changed event for it. */
  async function endpointWithEvent(name: string, body: Record<string, unknown> = {}, anchor?: string) {
    const endpoint = await makeEndpoint(team.admin.cookie, { url: receiver.url(path(name)), ...body });
    const placement = await addPlacement(database, team.organizationId);
    await recordEvents(database, team.organizationId, [anchorChanged(placement, anchor)], clk.now());
    const [delivery] = await deliveriesOf(database, endpoint.id);
    if (!delivery) throw new Error("no delivery written");
    return { endpoint, placement, delivery };
  }
  const row = async (id: string) =>
    (await database.db.select().from(webhookDelivery).where(eq(webhookDelivery.id, id)))[0];
  const endpointRow = async (id: string) =>
    (await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id)))[0];

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `whd-${backend}`);
  }, 120_000);
  // Every pass claims every due delivery: each test starts with none.
  afterEach(async () => {
    await database.db.delete(webhookEndpoint);
  });

  describe("the outbox", () => {
    it("deliveries are written in the event's transaction: rolled back together, one per endpoint that wants the type, none for a disabled endpoint", async () => {
      const wantsAll = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("all")) });
      const wantsPage = await makeEndpoint(team.admin.cookie, {
        url: receiver.url(path("page")),
        types: ["page_unreachable"],
      });
      const off = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("off")) });
      await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: off.id },
        body: { enabled: false },
      });
      const placement = await addPlacement(database, team.organizationId);
      await expect(
        database.db.transaction(async (tx) => {
          const { recordAlertEvents } = await import("@/lib/alerts/events");
          await recordAlertEvents(tx, team.organizationId, [anchorChanged(placement)], clk.now());
          throw new Error("the check failed after writing its events");
        }),
      ).rejects.toThrow("the check failed");
      expect(await database.db.select().from(webhookDelivery)).toHaveLength(0);
      await recordEvents(
        database,
        team.organizationId,
        [anchorChanged(placement), pageUnreachable(placement)],
        clk.now(),
      );
      expect((await deliveriesOf(database, wantsAll.id)).map((d) => d.type).sort()).toEqual([
        "anchor_changed",
        "page_unreachable",
      ]);
      expect((await deliveriesOf(database, wantsPage.id)).map((d) => d.type)).toEqual(["page_unreachable"]);
      expect(await deliveriesOf(database, off.id)).toHaveLength(0);
      // Nothing was sent by writing them.
      expect(receiver.to(path("all"))).toHaveLength(0);
    });
  });

  describe("bodies", () => {
    it("standard: verified by the standardwebhooks library's own verifier, with the spec's body", async () => {
      const { endpoint, placement, delivery } = await endpointWithEvent("standard");
      expect(await pass()).toMatchObject({ attempted: 1, delivered: 1 });
      const [request] = receiver.to(path("standard"));
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(request?.headers["user-agent"]).toMatch(/^LinkLens-Webhooks\//);
      const body = verifyAt(endpoint.secret, request, clk.now()) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      expect(body.type).toBe("anchor_changed");
      expect(body.timestamp).toBe(clk.now().toISOString());
      expect(body.data).toMatchObject({
        event: {
          id: delivery.eventId,
          type: "anchor_changed",
          monitorId: placement.monitorId,
          trackedLinkId: placement.linkId,
        },
        monitor: { id: placement.monitorId },
        trackedLink: { id: placement.linkId, target: "https://mine.example/landing" },
        organization: { id: team.organizationId },
        appUrl: `http://localhost:3000/app/monitors/${placement.monitorId}`,
      });
      expect(await row(delivery.id)).toMatchObject({
        status: "delivered",
        attempts: 1,
        responseStatus: 200,
        responseBody: "ok",
        error: null,
      });
    });

    it("slack: text + blocks with the email's sentence and a button; an anchor can never mention or link", async () => {
      const hostile = "<!channel> <@U024BE7LH> <https://evil.example|claim your prize> & more";
      const { placement } = await endpointWithEvent("slack", { kind: "slack" }, hostile);
      await pass();
      const [request] = receiver.to(path("slack"));
      const body = JSON.parse(request?.body ?? "{}") as {
        text: string;
        blocks: Array<{ type: string; text?: { text: string; verbatim?: boolean }; elements?: Array<{ url: string }> }>;
      };
      expect(body.text).toMatch(/^Anchor text changed: mine\.example\/landing on blog\.example\.org\/post-/);
      const raw = request?.body ?? "";
      expect(raw).not.toContain("<!channel>");
      expect(raw).not.toContain("<@U024BE7LH>");
      expect(raw).not.toContain("<https://evil.example");
      expect(raw).toContain(
        "&lt;!channel&gt; &lt;@U024BE7LH&gt; &lt;https://evil.example|claim your prize&gt; &amp; more",
      );
      expect(body.blocks.at(-1)?.elements?.[0]?.url).toBe(`http://localhost:3000/app/monitors/${placement.monitorId}`);
      expect(body.blocks.filter((b) => b.text).every((b) => b.text?.verbatim === true)).toBe(true);
    });
  });

  describe("receivers that misbehave (one behaviour each)", () => {
    it("answers slowly but within 10 s: delivered", async () => {
      receiver.on(path("slow"), { kind: "answer", status: 200, body: "took a while", delayMs: 1_500 });
      const { delivery } = await endpointWithEvent("slow");
      await pass();
      expect(await row(delivery.id)).toMatchObject({ status: "delivered", responseBody: "took a while" });
    });

    it("hangs: no answer by the deadline is a failed attempt, retried later", async () => {
      receiver.on(path("hang"), { kind: "hang" });
      const { delivery } = await endpointWithEvent("hang");
      const started = Date.now();
      await pass({ timeoutMs: 2_000 });
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(await row(delivery.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        responseStatus: null,
        error: "No answer within 2 s.",
        nextAttemptAt: new Date(clk.now().getTime() + MIN),
      });
    });

    it("streams an endless body: the 2xx counts, 1 KiB of it is kept, the rest is never read", async () => {
      receiver.on(path("endless"), { kind: "endless" });
      const { delivery } = await endpointWithEvent("endless");
      const started = Date.now();
      await pass();
      expect(Date.now() - started).toBeLessThan(5_000);
      const after = await row(delivery.id);
      expect(after).toMatchObject({ status: "delivered", responseStatus: 200 });
      expect(after?.responseBody).toBe("x".repeat(1024));
    });

    it.each([
      ["301", 301],
      ["302", 302],
      ["307", 307],
    ])("answers %s: a failure; the redirect is not followed", async (_name, status) => {
      receiver.on(path(`redirect-${status}`), {
        kind: "answer",
        status,
        headers: { location: receiver.url(path(`landing-${status}`)) },
      });
      const { delivery } = await endpointWithEvent(`redirect-${status}`);
      await pass();
      const after = await row(delivery.id);
      expect(after).toMatchObject({ status: "pending", responseStatus: status });
      expect(after?.error).toContain("redirects are not followed");
      expect(receiver.to(path(`landing-${status}`))).toHaveLength(0);
    });

    it.each([
      ["400", 400],
      ["404", 404],
      ["410", 410],
      ["429", 429],
      ["500", 500],
      ["503", 503],
    ])("answers %s: a failure with the answer kept, retried after the first backoff step", async (_name, status) => {
      receiver.on(path(`status-${status}`), { kind: "answer", status, body: `{"error":"nope ${status}"}` });
      const { delivery } = await endpointWithEvent(`status-${status}`);
      await pass();
      expect(await row(delivery.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        responseStatus: status,
        responseBody: `{"error":"nope ${status}"}`,
        nextAttemptAt: new Date(clk.now().getTime() + MIN),
      });
    });

    it("closes the connection: a failure with no answer", async () => {
      receiver.on(path("close"), { kind: "close" });
      const { delivery, endpoint } = await endpointWithEvent("close");
      await pass();
      const after = await row(delivery.id);
      expect(after).toMatchObject({ status: "pending", responseStatus: null, responseBody: null });
      expect(after?.error).toMatch(/^Could not connect, or the connection closed/);
      expect(await endpointRow(endpoint.id)).toMatchObject({ lastStatus: null, consecutiveFailures: 1 });
    });

    it("DNS rebinding: a host that resolved to a public address at creation and to a private one now gets nothing", async () => {
      let answer = "93.184.216.34";
      const flipping: Resolver = async (hostname) =>
        hostname === "rebind.example" ? [{ address: answer, family: 4 }] : [];
      const { endpoint } = await makeEndpointVia(flipping, "https://rebind.example/hook");
      const placement = await addPlacement(database, team.organizationId);
      await recordEvents(database, team.organizationId, [anchorChanged(placement)], clk.now());
      // The tripwire listens on port 443 of a loopback address; the name now points there.
      answer = tripwire.host;
      const before = tripwire.connections();
      await pass({ resolver: flipping });
      const [delivery] = await deliveriesOf(database, endpoint.id);
      expect(delivery).toMatchObject({ status: "pending", responseStatus: null, attempts: 1 });
      expect(delivery?.error).toBe("Not sent: rebind.example resolves to a non-public address.");
      expect(tripwire.connections()).toBe(before);
      // The tripwire itself works: a plain connection is counted.
      const net = await import("node:net");
      await new Promise<void>((resolve) =>
        net
          .connect(443, tripwire.host)
          .on("close", () => resolve())
          .on("error", () => resolve()),
      );
      expect(tripwire.connections()).toBe(before + 1);
    });
  });

  /** Creation through the service with an injected resolver (the route uses the system's). */
  async function makeEndpointVia(resolver: Resolver, url: string) {
    const { createWebhook } = await import("@/lib/webhooks/endpoints");
    const { authorize } = await import("@/lib/auth/guard");
    const { makeRequest } = await import("./harness");
    const ctx = await authorize(makeRequest("POST", "/api/account/webhooks", { cookie: team.admin.cookie }), {
      webhook: ["manage"],
    });
    const endpoint = await createWebhook({ ...ctx, resolver }, { url, kind: "standard", description: "" });
    return { endpoint };
  }

  describe("retries, disabling and re-enabling", () => {
    it("8 attempts at about 1 min, 5 min, 30 min, 2 h, 8 h, 24 h, 24 h, the same webhook-id each time; then failed, the endpoint disabled and the admins emailed", async () => {
      receiver.on(path("down"), { kind: "answer", status: 503, body: "maintenance" });
      const { endpoint, delivery } = await endpointWithEvent("down");
      const start = clk.now().getTime();
      const gaps = [0, 1, 5, 30, 120, 480, 1440, 1440];
      let elapsed = 0;
      for (const [index, gap] of gaps.entries()) {
        elapsed += gap;
        if (gap > 0) {
          // A minute early: nothing is due yet.
          clk.set(new Date(start + (elapsed - 1) * MIN));
          expect((await pass()).attempted, `attempt ${index + 1} came early`).toBe(0);
        }
        clk.set(new Date(start + elapsed * MIN));
        expect((await pass()).attempted, `attempt ${index + 1}`).toBe(1);
      }
      clk.advance(7 * 24 * 60 * MIN);
      expect((await pass()).attempted).toBe(0);
      const requests = receiver.to(path("down"));
      expect(requests).toHaveLength(8);
      expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([`msg_${delivery.id}`]));
      expect(new Set(requests.map((r) => r.body)).size).toBe(1);
      expect(await row(delivery.id)).toMatchObject({
        status: "failed",
        attempts: 8,
        responseStatus: 503,
        nextAttemptAt: expect.any(Date),
      });
      const view = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id: endpoint.id } });
      expect(view.json).toMatchObject({ enabled: false, consecutiveFailures: 8, lastStatus: 503 });
      // The admins and the owner are told, once; members and viewers are not.
      const emails = await database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, "webhook_disabled"), eq(outbox.organizationId, team.organizationId)));
      expect(emails.map((e) => e.recipient).sort()).toEqual([team.admin.email, team.owner.email].sort());
      expect(emails[0]?.subject).toMatch(/^Webhook disabled: 127\.0\.0\.1:\d+ \(/);
      expect(emails[0]?.text).toContain("HTTP 503");
      expect(emails[0]?.text).toContain("http://localhost:3000/app/webhooks");
      const log = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.admin.cookie });
      expect(log.text).toContain("webhook.disabled");
      // Re-enabling starts afresh.
      const enabled = await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: endpoint.id },
        body: { enabled: true },
      });
      expect(enabled.json).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    });

    it("a delivery that runs out while the endpoint succeeded since does not disable it", async () => {
      receiver.on(path("flaky"), { kind: "answer", status: 500 });
      const { endpoint, delivery } = await endpointWithEvent("flaky");
      await database.db
        .update(webhookDelivery)
        .set({ attempts: 7, status: "pending" })
        .where(eq(webhookDelivery.id, delivery.id));
      await database.db
        .update(webhookEndpoint)
        .set({ lastSuccessAt: new Date(clk.now().getTime() + 1) })
        .where(eq(webhookEndpoint.id, endpoint.id));
      await pass();
      expect(await row(delivery.id)).toMatchObject({ status: "failed", attempts: 8 });
      expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true });
    });

    it("disabling an endpoint fails its waiting deliveries; nothing more is sent", async () => {
      receiver.on(path("paused"), { kind: "answer", status: 500 });
      const { endpoint, delivery } = await endpointWithEvent("paused");
      await pass();
      await call(patchWebhook, "PATCH", "/x", {
        cookie: team.admin.cookie,
        params: { id: endpoint.id },
        body: { enabled: false },
      });
      expect(await row(delivery.id)).toMatchObject({ status: "failed", error: "The endpoint was disabled." });
      clk.advance(2 * 24 * 60 * MIN);
      expect((await pass()).attempted).toBe(0);
      expect(receiver.to(path("paused"))).toHaveLength(1);
    });
  });

  describe("changes while deliveries wait", () => {
    it("an endpoint deleted while deliveries are pending: they stop", async () => {
      receiver.on(path("deleted"), { kind: "answer", status: 500 });
      const { endpoint } = await endpointWithEvent("deleted");
      await pass();
      expect(
        await call(deleteWebhook, "DELETE", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id } }),
      ).toMatchObject({ status: 204 });
      expect(await deliveriesOf(database, endpoint.id)).toHaveLength(0);
      clk.advance(2 * 24 * 60 * MIN);
      expect((await pass()).attempted).toBe(0);
      expect(receiver.to(path("deleted"))).toHaveLength(1);
    });

    it("a rotated secret: the next attempt is signed with the new one", async () => {
      receiver.on(path("rotated"), { kind: "answer", status: 500 });
      const { endpoint } = await endpointWithEvent("rotated");
      await pass();
      const { POST: rotate } = await import("@/app/api/account/webhooks/[id]/rotate-secret/route");
      const rotated = await call(rotate, "POST", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id } });
      const fresh = String(rotated.json?.secret);
      receiver.on(path("rotated"), { kind: "answer", status: 200 });
      clk.advance(MIN);
      await pass();
      const [first, second] = receiver.to(path("rotated"));
      expect(() => verifyAt(endpoint.secret, first, clk.now())).not.toThrow();
      expect(verifyAt(fresh, second, clk.now())).toMatchObject({ type: "anchor_changed" });
      expect(() => verifyAt(endpoint.secret, second, clk.now())).toThrow();
    });
  });

  describe("claims", () => {
    it("two senders passing at the same moment attempt each delivery once", async () => {
      const endpoint = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("once")) });
      const placement = await addPlacement(database, team.organizationId);
      const events = Array.from({ length: 30 }, (_, i) => anchorChanged(placement, `anchor ${i}`));
      await recordEvents(database, team.organizationId, events, clk.now());
      // Rounds of four senders at once (each claim takes at most 4 of one endpoint), until none is left.
      let attempted = 0;
      for (let round = 0; round < 20; round += 1) {
        const results = await Promise.all([1, 2, 3, 4].map(() => pass()));
        const now = results.reduce((sum, result) => sum + result.attempted, 0);
        attempted += now;
        if (now === 0) break;
      }
      expect(attempted).toBe(30);
      const ids = receiver.to(path("once")).map((r) => r.headers["webhook-id"]);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect(
        (await deliveriesOf(database, endpoint.id)).every((d) => d.status === "delivered" && d.attempts === 1),
      ).toBe(true);
    });

    it("a claim whose sender died is taken over once its lease runs out (at least once, same webhook-id)", async () => {
      const { delivery } = await endpointWithEvent("takeover");
      const [claimed] = await claimDueDeliveries(deps(), 10);
      expect(claimed?.id).toBe(delivery.id);
      // That sender never comes back. Before the lease ends nobody else may try; after, the next pass does.
      expect((await pass()).attempted).toBe(0);
      clk.advance(61_000);
      expect((await pass()).attempted).toBe(1);
      expect(await row(delivery.id)).toMatchObject({ status: "delivered", attempts: 2 });
      expect(receiver.to(path("takeover")).map((r) => r.headers["webhook-id"])).toEqual([`msg_${delivery.id}`]);
    });

    it("a hanging receiver holds at most its share of the slots: another endpoint's delivery goes out in the same pass", async () => {
      receiver.on(path("stuck"), { kind: "hang" });
      const stuck = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("stuck")) });
      const placement = await addPlacement(database, team.organizationId);
      await recordEvents(
        database,
        team.organizationId,
        Array.from({ length: 10 }, (_, i) => anchorChanged(placement, `a${i}`)),
        clk.now(),
      );
      clk.advance(1);
      const healthy = await endpointWithEvent("healthy");
      const result = await deliverDueWebhooks(deps({ timeoutMs: 1_500 }), { concurrency: 4, perEndpoint: 2 });
      expect(result).toMatchObject({ attempted: 3, delivered: 1 });
      expect(await row(healthy.delivery.id)).toMatchObject({ status: "delivered" });
      expect(receiver.maxConcurrent(path("stuck"))).toBeLessThanOrEqual(2);
      expect((await deliveriesOf(database, stuck.id)).filter((d) => d.attempts > 0)).toHaveLength(2);
    });
  });

  describe("fair across organizations", () => {
    let others: Array<Person & { organizationId: string }> = [];
    beforeAll(async () => {
      others = [await makeSoloOwner(`whd-b-${backend}`), await makeSoloOwner(`whd-c-${backend}`)];
    }, 60_000);
    const other = (index: number) => {
      const person = others[index];
      if (!person) throw new Error("no such organization");
      return person;
    };

    /** `count` events of the organization, each written by its own check a millisecond after the one before, from `from`. */
    async function eventsFrom(organizationId: string, count: number, from: number) {
      const placement = await addPlacement(database, organizationId);
      for (let i = 0; i < count; i += 1)
        await recordEvents(database, organizationId, [anchorChanged(placement, `anchor ${i}`)], new Date(from + i));
    }
    const oldestFirst = async (endpointId: string) =>
      (await deliveriesOf(database, endpointId)).sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
    const ids = (rows: ReadonlyArray<{ id: string } | undefined>) => rows.map((row) => row?.id);

    it("a claim takes every organization's oldest due delivery, then every organization's second, …: a backlog goes no faster than one a round", async () => {
      const [a, b, c] = [
        await makeEndpoint(team.admin.cookie, { url: receiver.url(path("rr-a")) }),
        await makeEndpoint(other(0).cookie, { url: receiver.url(path("rr-b")) }),
        await makeEndpoint(other(1).cookie, { url: receiver.url(path("rr-c")) }),
      ];
      // A's backlog is the oldest, C's one delivery the newest.
      const now = clk.now().getTime();
      await eventsFrom(team.organizationId, 5, now - 300_000);
      await eventsFrom(other(0).organizationId, 3, now - 200_000);
      await eventsFrom(other(1).organizationId, 1, now - 100_000);
      const [da, db, dc] = [await oldestFirst(a.id), await oldestFirst(b.id), await oldestFirst(c.id)];
      // Caps out of the way: this is the order alone.
      const roomy = { perOrganization: 100, perEndpoint: 100 };
      expect(ids(await claimDueDeliveries(deps(), 6, roomy))).toEqual(ids([da[0], db[0], dc[0], da[1], db[1], da[2]]));
      expect(ids(await claimDueDeliveries(deps(), 32, roomy))).toEqual(ids([da[3], db[2], da[4]]));
    });

    it("caps one organization's attempts in flight over every instance (counted from live leases), each of its endpoints below that; a lease that ran out frees its slot", async () => {
      const endpointsA = [
        await makeEndpoint(team.admin.cookie, { url: receiver.url(path("cap-a1")) }),
        await makeEndpoint(team.admin.cookie, { url: receiver.url(path("cap-a2")) }),
        await makeEndpoint(team.admin.cookie, { url: receiver.url(path("cap-a3")) }),
      ];
      const endpointB = await makeEndpoint(other(0).cookie, { url: receiver.url(path("cap-b")) });
      const now = clk.now().getTime();
      // 30 deliveries of A (10 events, 3 endpoints): the endpoints' caps (3 × 4) would let 12 go at once.
      await eventsFrom(team.organizationId, 10, now - 300_000);
      await eventsFrom(other(0).organizationId, 1, now - 100_000);
      const inFlight = async () => {
        const rows = (
          await Promise.all([...endpointsA, endpointB].map((endpoint) => deliveriesOf(database, endpoint.id)))
        ).map((list) => list.filter((d) => d.status === "sending").length);
        return { a: rows.slice(0, 3), b: rows[3] };
      };
      // Three claims as three instances would make them, one after the other (the defaults: 8 per organization, 4 per endpoint).
      const first = await claimDueDeliveries(deps(), 3);
      expect(first.map((d) => d.endpointId === endpointB.id)).toEqual([false, true, false]);
      const second = await claimDueDeliveries(deps(), 32);
      expect(second).toHaveLength(6);
      expect(await claimDueDeliveries(deps(), 32)).toEqual([]);
      const held = await inFlight();
      expect(held.a.reduce((sum, n) => sum + n, 0)).toBe(8);
      expect(Math.max(...held.a)).toBeLessThanOrEqual(4);
      expect(held.b).toBe(1);
      // A cap below what is in flight (a race passed it, or a sender was given a smaller one) takes nothing, and is no error.
      expect(await claimDueDeliveries(deps(), 32, { perOrganization: 2 })).toEqual([]);
      // Their senders died: once the leases run out those attempts no longer count, and A gets its 8 again.
      clk.advance(61_000);
      const again = await claimDueDeliveries(deps(), 32);
      expect(again.filter((d) => d.endpointId !== endpointB.id)).toHaveLength(8);
      expect(again.filter((d) => d.endpointId === endpointB.id)).toHaveLength(1);
    });

    it("an organization whose receivers hang cannot hold up another's: its one delivery goes out in the first claim while theirs still hang", async () => {
      const hung = [path("hung-1"), path("hung-2")];
      for (const where of hung) receiver.on(where, { kind: "hang" });
      const endpointsA = [
        await makeEndpoint(team.admin.cookie, { url: receiver.url(hung[0] ?? "") }),
        await makeEndpoint(team.admin.cookie, { url: receiver.url(hung[1] ?? "") }),
      ];
      const endpointB = await makeEndpoint(other(0).cookie, { url: receiver.url(path("prompt")) });
      // A's big import (80 deliveries) came first; B's one alert a minute later.
      const now = clk.now().getTime();
      const placementA = await addPlacement(database, team.organizationId);
      await recordEvents(
        database,
        team.organizationId,
        Array.from({ length: 40 }, (_, i) => anchorChanged(placementA, `import ${i}`)),
        new Date(now - 60_000),
      );
      await eventsFrom(other(0).organizationId, 1, now - 1_000);
      const deliveriesA = async () =>
        (await Promise.all(endpointsA.map((endpoint) => deliveriesOf(database, endpoint.id)))).flat();
      // A's attempts never end on their own while the test looks (no 10 s to wait): only the release below answers them.
      const sender = startWebhookSender(deps({ timeoutMs: 600_000 }), { intervalMs: 3_600_000 });
      try {
        // One pump: it claims until every slot is taken or nothing due is left.
        await sender.kick();
        const [claimedB] = await deliveriesOf(database, endpointB.id);
        expect(claimedB?.attempts, "B's delivery was not in the first pump's claims").toBe(1);
        expect((await deliveriesA()).filter((d) => d.attempts > 0)).toHaveLength(8);
        // B's attempt ends with its receiver's answer; A's 8 reach theirs and stay there.
        const toA = () => hung.flatMap((where) => receiver.to(where));
        while ((await deliveriesOf(database, endpointB.id))[0]?.status !== "delivered" || toA().length < 8)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(receiver.to(path("prompt"))).toHaveLength(1);
        // Every request A's receivers got is still open: B's delivery did not wait for any of them.
        expect(toA()).toHaveLength(8);
        expect(toA().filter((request) => request.closedAt !== undefined)).toEqual([]);
      } finally {
        const stopped = sender.stop(30_000);
        for (const where of hung) receiver.release(where);
        await stopped;
      }
      // Released, A's 8 attempts are delivered, each once; the rest of A's backlog waits for the next claims.
      const after = await deliveriesA();
      expect(after.filter((d) => d.status === "delivered")).toHaveLength(8);
      expect(after.filter((d) => d.status === "pending" && d.attempts === 0)).toHaveLength(72);
    });
  });
});
