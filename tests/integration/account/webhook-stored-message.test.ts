import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inArray, sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { webhookDelivery } from "@/lib/db/schema";
import { deliverDueWebhooks } from "@/lib/webhooks/sender";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";
import { BACKENDS, closeAll, useFreshDatabase } from "./harness";
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
  verifyAt,
} from "./webhook-setup";

/**
 * The stored message is channel-neutral (`summary`), and deliveries queued while it was called `slack`
 * — written before an upgrade, or by an instance still on the older code during a rolling deploy — are
 * delivered exactly as new ones, on PGlite and PostgreSQL (the jsonb round trip included).
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

describe.each(BACKENDS)("stored webhook messages (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const clk = clock(new Date("2026-11-23T12:00:00.000Z"));
  const path = (name: string) => `/stored-${backend}/${name}`;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `wsm-${backend}`);
  }, 120_000);

  it("new rows hold `summary`; rows holding `slack` (older code) send the same bytes to Slack and the standard body", async () => {
    const fresh = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("fresh")), kind: "slack" });
    const older = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("older")), kind: "slack" });
    const standard = await makeEndpoint(team.admin.cookie, { url: receiver.url(path("standard")) });
    const placement = await addPlacement(database, team.organizationId);
    const hostile = "<!channel> <https://evil.example|prize> & more";
    await recordEvents(database, team.organizationId, [anchorChanged(placement, hostile)], clk.now());

    const [written] = await deliveriesOf(database, fresh.id);
    expect(Object.keys(written?.payload ?? {}).sort()).toEqual(["data", "summary", "timestamp", "type"]);

    // What the code before the rename wrote: the same words under `slack`.
    const rewritten = [older.id, standard.id];
    await database.db.execute(sql`
      UPDATE ${webhookDelivery} SET payload = (payload - 'summary') || jsonb_build_object('slack', payload -> 'summary')
      WHERE endpoint_id IN (${sql.join(
        rewritten.map((id) => sql`${id}`),
        sql`, `,
      )})`);
    const legacy = await database.db
      .select({ payload: webhookDelivery.payload })
      .from(webhookDelivery)
      .where(inArray(webhookDelivery.endpointId, rewritten));
    expect(legacy.map((row) => Object.keys(row.payload).sort())).toEqual([
      ["data", "slack", "timestamp", "type"],
      ["data", "slack", "timestamp", "type"],
    ]);

    expect(await deliverDueWebhooks(senderDeps(database, clk.now))).toMatchObject({ attempted: 3, delivered: 3 });

    const [toFresh] = receiver.to(path("fresh"));
    const [toOlder] = receiver.to(path("older"));
    expect(toOlder?.body).toBe(toFresh?.body);
    const body = JSON.parse(toOlder?.body ?? "{}") as { text: string };
    expect(body.text).toMatch(/^Anchor text changed: /);
    expect(toOlder?.body).toContain("&lt;!channel&gt; &lt;https://evil.example|prize&gt; &amp; more");
    expect(toOlder?.body).not.toContain("<!channel>");

    const [toStandard] = receiver.to(path("standard"));
    const signed = verifyAt(standard.secret, toStandard, clk.now()) as Record<string, unknown>;
    expect(Object.keys(signed)).toEqual(["type", "timestamp", "data"]);
  });
});
