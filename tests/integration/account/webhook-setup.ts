import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { vi } from "vitest";
import { POST as createWebhook } from "@/app/api/account/webhooks/route";
import { recordAlertEvents, type NewAlertEvent } from "@/lib/alerts/events";
import { alertLinks } from "@/lib/alerts/links";
import { getConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { monitor, trackedLink, webhookDelivery } from "@/lib/db/schema";
import type { WebhookDeps } from "@/lib/webhooks/attempt";
import { call } from "./harness";

/** Helpers of the webhook suites: a monitored placement, its alert events, endpoints made through the route, a sender's dependencies. */

export const AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
export const WEBHOOK_KEYS = [
  "consecutiveFailures",
  "createdAt",
  "description",
  "enabled",
  "id",
  "kind",
  "lastDeliveryAt",
  "lastStatus",
  "types",
  "url",
];
export const DELIVERY_KEYS = [
  "attempt",
  "createdAt",
  "deliveredAt",
  "error",
  "eventId",
  "id",
  "nextAttemptAt",
  "responseBody",
  "responseStatus",
  "status",
  "type",
];

export const links = alertLinks("http://localhost:3000", AUTH_SECRET);

export interface Placement {
  monitorId: string;
  linkId: string;
}

/** A monitored page with one live tracked link, written as the monitor service would leave it. */
export async function addPlacement(
  database: Database,
  organizationId: string,
  url = `https://blog.example.org/post-${randomUUID().slice(0, 8)}`,
): Promise<Placement> {
  const monitorId = randomUUID();
  await database.db
    .insert(monitor)
    .values({ id: monitorId, organizationId, url, intervalMinutes: 1440, nextCheckAt: new Date() });
  const linkId = randomUUID();
  await database.db.insert(trackedLink).values({
    id: linkId,
    organizationId,
    monitorId,
    target: "https://mine.example/landing",
    match: "exact",
    source: "manual",
    state: "live",
  });
  return { monitorId, linkId };
}

export const anchorChanged = (placement: Placement, anchor = "<!channel> win a prize"): NewAlertEvent => ({
  type: "anchor_changed",
  monitorId: placement.monitorId,
  trackedLinkId: placement.linkId,
  checkId: null,
  before: {
    state: "live",
    link: {
      href: "https://mine.example/landing",
      anchorText: "Best shoes",
      isNofollow: false,
      isSponsored: false,
      isUgc: false,
      httpStatus: 200,
    },
  },
  after: {
    state: "anchor_mismatch",
    link: {
      href: "https://mine.example/landing",
      anchorText: anchor,
      isNofollow: false,
      isSponsored: false,
      isUgc: false,
      httpStatus: 200,
    },
  },
});

export const pageUnreachable = (placement: Placement): NewAlertEvent => ({
  type: "page_unreachable",
  monitorId: placement.monitorId,
  trackedLinkId: null,
  checkId: null,
  before: null,
  after: { consecutivePageErrors: 3, errorCode: "UPSTREAM_ERROR", pageStatus: 503 },
});

/** Writes events the way a check does: in one transaction, which also writes their deliveries. */
export async function recordEvents(
  database: Database,
  organizationId: string,
  events: NewAlertEvent[],
  now = new Date(),
) {
  return database.db.transaction((tx) => recordAlertEvents(tx, organizationId, events, now, links));
}

/** POST /api/account/webhooks as `cookie`; answers the created endpoint with its secret. */
export async function makeEndpoint(
  cookie: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; url: string }> {
  const result = await call(createWebhook, "POST", "/api/account/webhooks", { cookie, body });
  if (result.status !== 201) throw new Error(`create webhook: ${result.status} ${result.text}`);
  return result.json as { id: string; secret: string; url: string };
}

/** A settable clock: tests move time instead of waiting for a retry. */
export function clock(start = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => void (current += ms),
    set: (date: Date) => void (current = date.getTime()),
  };
}

/** What a sender of this process uses: the database, the process settings with overrides, a clock. */
export function senderDeps(
  database: Database,
  now: () => Date,
  overrides: Partial<WebhookDeps> & { settings?: Partial<WebhookDeps["settings"]> } = {},
): WebhookDeps {
  const { settings, ...rest } = overrides;
  return { db: database.db, settings: { ...getConfig(), ...settings }, now, ...rest };
}

export async function deliveriesOf(database: Database, endpointId: string) {
  return database.db.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpointId));
}

/**
 * The standardwebhooks verifier, run as a receiver whose clock reads `at` (the library refuses a
 * timestamp more than 5 minutes from its own now; the suites move a test clock instead of waiting).
 */
export function verifyAt(
  secret: string,
  request: { body: string; headers: Record<string, string> } | undefined,
  at: Date,
): unknown {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  try {
    return new Webhook(secret).verify(request?.body ?? "", request?.headers ?? {});
  } finally {
    vi.useRealTimers();
  }
}
