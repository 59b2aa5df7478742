import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { DELETE as deleteWebhook, GET as getWebhook, PATCH as patchWebhook } from "@/app/api/account/webhooks/[id]/route";
import type { Database } from "@/lib/db";
import { outbox, webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import type { Resolver } from "@/lib/net/resolve";
import { claimDueDeliveries, deliverDueWebhooks } from "@/lib/webhooks/sender";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { makeTeam, type Team } from "./team-setup";
import { addPlacement, anchorChanged, AUTH_SECRET, clock, deliveriesOf, makeEndpoint, pageUnreachable, recordEvents, senderDeps, verifyAt } from "./webhook-setup";
import { startTripwire, startWebhookReceiver, type Tripwire, type WebhookReceiver } from "../../helpers/webhook-receiver";

/**
 * Delivery (webhooks.md "Delivery") against real local receivers, one behaviour each, on PGlite and
 * PostgreSQL: the outbox written with the event, signing checked by the standardwebhooks verifier,
 * Slack escaping, every kind of bad receiver, the retry schedule on a moved clock, disabling with an
 * email to the admins, deletion and rotation while deliveries wait, DNS rebinding, one claim per
 * delivery and fairness between endpoints.
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
  const row = async (id: string) => (await database.db.select().from(webhookDelivery).where(eq(webhookDelivery.id, id)))[0];
  const endpointRow = async (id: string) => (await database.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id)))[0];

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
      const wantsPage = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("page")), types: ["page_unreachable"] });
      const off = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("off")) });
      await call(patchWebhook, "PATCH", "/x", { cookie: team.admin.cookie, params: { id: off.id }, body: { enabled: false } });
      const placement = await addPlacement(database, team.organizationId);
      await expect(
        database.db.transaction(async (tx) => {
          const { recordAlertEvents } = await import("@/lib/alerts/events");
          await recordAlertEvents(tx, team.organizationId, [anchorChanged(placement)], clk.now());
          throw new Error("the check failed after writing its events");
        }),
      ).rejects.toThrow("the check failed");
      expect(await database.db.select().from(webhookDelivery)).toHaveLength(0);
      await recordEvents(database, team.organizationId, [anchorChanged(placement), pageUnreachable(placement)], clk.now());
      expect((await deliveriesOf(database, wantsAll.id)).map((d) => d.type).sort()).toEqual(["anchor_changed", "page_unreachable"]);
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
      const body = verifyAt(endpoint.secret, request, clk.now()) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(body.type).toBe("anchor_changed");
      expect(body.timestamp).toBe(clk.now().toISOString());
      expect(body.data).toMatchObject({
        event: { id: delivery.eventId, type: "anchor_changed", monitorId: placement.monitorId, trackedLinkId: placement.linkId },
        monitor: { id: placement.monitorId },
        trackedLink: { id: placement.linkId, target: "https://mine.example/landing" },
        organization: { id: team.organizationId },
        appUrl: `http://localhost:3000/app/monitors/${placement.monitorId}`,
      });
      expect(await row(delivery.id)).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200, responseBody: "ok", error: null });
    });

    it("slack: text + blocks with the email's sentence and a button; an anchor can never mention or link", async () => {
      const hostile = "<!channel> <@U024BE7LH> <https://evil.example|claim your prize> & more";
      const { placement } = await endpointWithEvent("slack", { kind: "slack" }, hostile);
      await pass();
      const [request] = receiver.to(path("slack"));
      const body = JSON.parse(request?.body ?? "{}") as { text: string; blocks: Array<{ type: string; text?: { text: string; verbatim?: boolean }; elements?: Array<{ url: string }> }> };
      expect(body.text).toMatch(/^Anchor text changed: mine\.example\/landing on blog\.example\.org\/post-/);
      const raw = request?.body ?? "";
      expect(raw).not.toContain("<!channel>");
      expect(raw).not.toContain("<@U024BE7LH>");
      expect(raw).not.toContain("<https://evil.example");
      expect(raw).toContain("&lt;!channel&gt; &lt;@U024BE7LH&gt; &lt;https://evil.example|claim your prize&gt; &amp; more");
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
      expect(await row(delivery.id)).toMatchObject({ status: "pending", attempts: 1, responseStatus: null, error: "No answer within 2 s.", nextAttemptAt: new Date(clk.now().getTime() + MIN) });
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
      receiver.on(path(`redirect-${status}`), { kind: "answer", status, headers: { location: receiver.url(path(`landing-${status}`)) } });
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
      expect(await row(delivery.id)).toMatchObject({ status: "pending", attempts: 1, responseStatus: status, responseBody: `{"error":"nope ${status}"}`, nextAttemptAt: new Date(clk.now().getTime() + MIN) });
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
      const flipping: Resolver = async (hostname) => (hostname === "rebind.example" ? [{ address: answer, family: 4 }] : []);
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
      await new Promise<void>((resolve) => net.connect(443, tripwire.host).on("close", () => resolve()).on("error", () => resolve()));
      expect(tripwire.connections()).toBe(before + 1);
    });
  });

  /** Creation through the service with an injected resolver (the route uses the system's). */
  async function makeEndpointVia(resolver: Resolver, url: string) {
    const { createWebhook } = await import("@/lib/webhooks/endpoints");
    const { authorize } = await import("@/lib/auth/guard");
    const { makeRequest } = await import("./harness");
    const ctx = await authorize(makeRequest("POST", "/api/account/webhooks", { cookie: team.admin.cookie }), { webhook: ["manage"] });
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
      expect(await row(delivery.id)).toMatchObject({ status: "failed", attempts: 8, responseStatus: 503, nextAttemptAt: expect.any(Date) });
      const view = await call(getWebhook, "GET", "/x", { cookie: team.viewer.cookie, params: { id: endpoint.id } });
      expect(view.json).toMatchObject({ enabled: false, consecutiveFailures: 8, lastStatus: 503 });
      // The admins and the owner are told, once; members and viewers are not.
      const emails = await database.db.select().from(outbox).where(and(eq(outbox.kind, "webhook_disabled"), eq(outbox.organizationId, team.organizationId)));
      expect(emails.map((e) => e.recipient).sort()).toEqual([team.admin.email, team.owner.email].sort());
      expect(emails[0]?.subject).toMatch(/^Webhook disabled: 127\.0\.0\.1:\d+ \(/);
      expect(emails[0]?.text).toContain("HTTP 503");
      expect(emails[0]?.text).toContain("http://localhost:3000/app/webhooks");
      const log = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.admin.cookie });
      expect(log.text).toContain("webhook.disabled");
      // Re-enabling starts afresh.
      const enabled = await call(patchWebhook, "PATCH", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id }, body: { enabled: true } });
      expect(enabled.json).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    });

    it("a delivery that runs out while the endpoint succeeded since does not disable it", async () => {
      receiver.on(path("flaky"), { kind: "answer", status: 500 });
      const { endpoint, delivery } = await endpointWithEvent("flaky");
      await database.db.update(webhookDelivery).set({ attempts: 7, status: "pending" }).where(eq(webhookDelivery.id, delivery.id));
      await database.db.update(webhookEndpoint).set({ lastSuccessAt: new Date(clk.now().getTime() + 1) }).where(eq(webhookEndpoint.id, endpoint.id));
      await pass();
      expect(await row(delivery.id)).toMatchObject({ status: "failed", attempts: 8 });
      expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true });
    });

    it("disabling an endpoint fails its waiting deliveries; nothing more is sent", async () => {
      receiver.on(path("paused"), { kind: "answer", status: 500 });
      const { endpoint, delivery } = await endpointWithEvent("paused");
      await pass();
      await call(patchWebhook, "PATCH", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id }, body: { enabled: false } });
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
      expect(await call(deleteWebhook, "DELETE", "/x", { cookie: team.admin.cookie, params: { id: endpoint.id } })).toMatchObject({ status: 204 });
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
      // Rounds of four senders at once (each claim takes at most 16 of one endpoint), until none is left.
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
      expect((await deliveriesOf(database, endpoint.id)).every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
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
      await recordEvents(database, team.organizationId, Array.from({ length: 10 }, (_, i) => anchorChanged(placement, `a${i}`)), clk.now());
      clk.advance(1);
      const healthy = await endpointWithEvent("healthy");
      const result = await deliverDueWebhooks(deps({ timeoutMs: 1_500 }), { concurrency: 4, perEndpoint: 2 });
      expect(result).toMatchObject({ attempted: 3, delivered: 1 });
      expect(await row(healthy.delivery.id)).toMatchObject({ status: "delivered" });
      expect(receiver.maxConcurrent(path("stuck"))).toBeLessThanOrEqual(2);
      expect((await deliveriesOf(database, stuck.id)).filter((d) => d.attempts > 0)).toHaveLength(2);
    });
  });
});
