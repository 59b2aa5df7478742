/**
 * Webhook delivery benchmark (`npm run bench:webhooks`), loopback only:
 *   BENCH_THROUGHPUT=2000 BENCH_BACKLOG=10000 BENCH_SENDERS=2 npm run bench:webhooks
 *
 * A throw-away PostgreSQL, a local receiver that answers 204 after reading the body, one organization
 * with one standard endpoint (the worst case for the caps per organization and per endpoint), and
 * BENCH_SENDERS webhook senders, each with its own connection pool as separate instances have
 * (lib/webhooks/sender.ts and claim.ts, the production defaults):
 *  1. throughput: BENCH_THROUGHPUT events written, then drained: deliveries per second;
 *  2. backlog: BENCH_BACKLOG events written in check-sized transactions (as a burst of checks would)
 *     while the senders run: how long the writes took, when the last delivery went out, how long the
 *     oldest waited.
 * Prints the machine's load average before and after: on a shared machine the figures move with it.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { count, eq, sql } from "drizzle-orm";
import { recordAlertEvents, type NewAlertEvent } from "@/lib/alerts/events";
import { alertLinks } from "@/lib/alerts/links";
import { parseConfig } from "@/lib/config";
import { openDatabase, type Database } from "@/lib/db";
import { monitor, organization, trackedLink, webhookDelivery, webhookEndpoint } from "@/lib/db/schema";
import { sealSecret, generateSecret } from "@/lib/webhooks/secret";
import { startWebhookSender, type RunningWebhookSender } from "@/lib/webhooks/sender";
import { loadAverage } from "./lib/machine";
import { startPostgres } from "./lib/postgres";
import { percentile } from "./lib/stats";

const THROUGHPUT = Number(process.env.BENCH_THROUGHPUT ?? 2000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 2);
/** Events per transaction: a check writes its page's changes together. */
const BATCH = 50;
const AUTH_SECRET = "bench-secret-bench-secret-bench-secret-00";

async function startReceiver(): Promise<{
  allowEntry: string;
  url: string;
  received: () => number;
  close: () => Promise<void>;
}> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    allowEntry: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function setup(database: Database, url: string) {
  const organizationId = randomUUID();
  await database.db
    .insert(organization)
    .values({ id: organizationId, name: "Bench", slug: `bench-${organizationId.slice(0, 8)}`, createdAt: new Date() });
  const monitorId = randomUUID();
  await database.db.insert(monitor).values({
    id: monitorId,
    organizationId,
    url: "https://blog.example.org/post",
    intervalMinutes: 1440,
    paused: true,
    nextCheckAt: new Date(Date.now() + 86_400_000),
  });
  const linkId = randomUUID();
  await database.db.insert(trackedLink).values({
    id: linkId,
    organizationId,
    monitorId,
    target: "https://mine.example/",
    match: "exact",
    source: "manual",
    state: "live",
  });
  const endpointId = randomUUID();
  await database.db.insert(webhookEndpoint).values({
    id: endpointId,
    organizationId,
    url,
    kind: "standard",
    types: ["anchor_changed"],
    secretCiphertext: sealSecret(generateSecret(), AUTH_SECRET),
  });
  return { organizationId, monitorId, linkId, endpointId };
}

async function writeEvents(database: Database, where: Awaited<ReturnType<typeof setup>>, total: number): Promise<void> {
  const links = alertLinks("http://127.0.0.1:3000", AUTH_SECRET);
  for (let written = 0; written < total; written += BATCH) {
    const events: NewAlertEvent[] = Array.from({ length: Math.min(BATCH, total - written) }, (_, i) => ({
      type: "anchor_changed",
      monitorId: where.monitorId,
      trackedLinkId: where.linkId,
      checkId: null,
      before: { state: "live", link: { anchorText: "Best shoes" } },
      after: { state: "anchor_mismatch", link: { anchorText: `Shoes ${written + i}` } },
    }));
    await database.db.transaction((tx) => recordAlertEvents(tx, where.organizationId, events, new Date(), links));
  }
}

async function waiting(database: Database, endpointId: string): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(webhookDelivery)
    .where(sql`${webhookDelivery.endpointId} = ${endpointId} AND ${webhookDelivery.status} <> 'delivered'`);
  return row?.n ?? 0;
}

async function drained(database: Database, endpointId: string): Promise<void> {
  while ((await waiting(database, endpointId)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function main(): Promise<void> {
  console.log(
    `webhook benchmark: ${os.cpus().length} cores, load average ${loadAverage()}; ${SENDERS} sender(s), one endpoint, a local receiver`,
  );
  const postgres = await startPostgres();
  const receiver = await startReceiver();
  const databaseUrl = await postgres.createDatabase();
  const settings = parseConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: AUTH_SECRET,
    ALLOW_PRIVATE_HOSTS: receiver.allowEntry,
    LOG_LEVEL: "warn",
  });
  const writer = openDatabase({ databaseUrl, dataDir: "" });
  await writer.migrate();
  const instances = Array.from({ length: SENDERS }, () => openDatabase({ databaseUrl, dataDir: "" }));
  let senders: RunningWebhookSender[] = [];
  const startSenders = () =>
    (senders = instances.map((database) => startWebhookSender({ db: database.db, settings, now: () => new Date() })));
  const stopSenders = async () => Promise.all(senders.map((sender) => sender.stop()));
  try {
    // 1. Throughput: a backlog is there before the senders start.
    const first = await setup(writer, receiver.url);
    await writeEvents(writer, first, THROUGHPUT);
    const started = performance.now();
    startSenders();
    await drained(writer, first.endpointId);
    const seconds = (performance.now() - started) / 1000;
    await stopSenders();
    console.log(
      `throughput: ${THROUGHPUT} deliveries in ${seconds.toFixed(1)} s = ${Math.round(THROUGHPUT / seconds)} deliveries/s (load average ${loadAverage()})`,
    );

    // 2. A burst written while the senders run, as checks would write it.
    const second = await setup(writer, receiver.url);
    startSenders();
    const burst = performance.now();
    await writeEvents(writer, second, BACKLOG);
    const writtenAfter = (performance.now() - burst) / 1000;
    const left = await waiting(writer, second.endpointId);
    await drained(writer, second.endpointId);
    const drainedAfter = (performance.now() - burst) / 1000;
    await stopSenders();
    const rows = await writer.db
      .select({ createdAt: webhookDelivery.createdAt, deliveredAt: webhookDelivery.deliveredAt })
      .from(webhookDelivery)
      .where(eq(webhookDelivery.endpointId, second.endpointId));
    const waits = rows.map((row) => (row.deliveredAt?.getTime() ?? 0) - row.createdAt.getTime());
    console.log(
      `backlog: ${BACKLOG} events written in ${writtenAfter.toFixed(1)} s (${BATCH} a transaction, ${left} still waiting then); all delivered ${drainedAfter.toFixed(1)} s after the first write ` +
        `= ${Math.round(BACKLOG / drainedAfter)} deliveries/s; wait from event to delivery p50 ${(percentile(waits, 50) / 1000).toFixed(1)} s, p99 ${(percentile(waits, 99) / 1000).toFixed(1)} s, max ${(Math.max(...waits) / 1000).toFixed(1)} s`,
    );
    console.log(
      `receiver got ${receiver.received()} requests for ${THROUGHPUT + BACKLOG} deliveries; load average ${loadAverage()}`,
    );
  } finally {
    await stopSenders();
    await Promise.all([writer.close(), ...instances.map((database) => database.close())]);
    await receiver.close();
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
