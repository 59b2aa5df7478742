import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { alertEvent } from "./alerts";
import { organizationRef, time } from "./columns";

/**
 * Webhooks (webhooks.md): an organization's endpoints and the outbox of their deliveries. A delivery row
 * is written in the transaction that writes its alert event (or by a test ping), claimed by one sender
 * at a time (status `sending` with a lease), and marked `delivered`, `pending` again with a later
 * `nextAttemptAt`, or `failed`. Deleting an endpoint deletes its deliveries: pending ones stop.
 */

export type { WebhookKind } from "../../schemas/webhooks";
import type { WebhookKind } from "../../schemas/webhooks";
export type WebhookDeliveryStatus = "pending" | "sending" | "delivered" | "failed";

export const webhookEndpoint = pgTable(
  "webhook_endpoint",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    url: text("url").notNull(),
    kind: text("kind").$type<WebhookKind>().notNull(),
    /** Alert types delivered to it (every type by default). */
    types: text("types").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    description: text("description").notNull().default(""),
    /** The signing secret, AES-256-GCM under a key derived from the auth secret (lib/webhooks/secret.ts); never returned after creation. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
    /** The last attempt of any delivery (pings included), its HTTP status (null: no answer). */
    lastDeliveryAt: time("last_delivery_at"),
    lastStatus: integer("last_status"),
    /** The last successful attempt of an event delivery (not a ping): the auto-disable rule reads it. */
    lastSuccessAt: time("last_success_at"),
    /** Failed attempts since the last success (pings excluded); reset by a success or by re-enabling. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  },
  (table) => [index("webhook_endpoint_org_created_idx").on(table.organizationId, table.createdAt, table.id)],
);

export const webhookDelivery = pgTable(
  "webhook_delivery",
  {
    /** Also the `webhook-id` header (with a `msg_` prefix): the same on every attempt. */
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: "cascade" }),
    /** The alert event delivered; null for a ping. */
    eventId: text("event_id").references(() => alertEvent.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** What is sent, frozen when the event happened (lib/webhooks/message.ts); each kind renders its body from it. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    /** Attempts made (a claim counts one: a sender that died mid-attempt may have sent it). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: time("next_attempt_at").notNull().defaultNow(),
    leaseUntil: time("lease_until"),
    lastAttemptAt: time("last_attempt_at"),
    /** The receiver's last answer: HTTP status and at most 1 KiB of its body; null when there was none. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    error: text("error"),
    createdAt: time("created_at").notNull().defaultNow(),
    deliveredAt: time("delivered_at"),
  },
  (table) => [
    // One delivery per (event, endpoint), even if the writer ran twice.
    uniqueIndex("webhook_delivery_event_endpoint_uq").on(table.eventId, table.endpointId),
    index("webhook_delivery_endpoint_created_idx").on(table.endpointId, table.createdAt, table.id),
    // The sender's claim: due rows of one endpoint in order, and leases that ran out.
    index("webhook_delivery_due_idx")
      .on(table.endpointId, table.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_delivery_lease_idx")
      .on(table.endpointId, table.leaseUntil)
      .where(sql`status = 'sending'`),
  ],
);
