import { z } from "zod";
import { ALERT_TYPES } from "./alerts";
import { CONTROL_CHARACTERS, isoTime } from "./common";
import { WEBHOOK_KINDS } from "./webhook-kinds";

/** Webhooks (webhooks.md): endpoints and their deliveries, requests and answers. */

export { WEBHOOK_KINDS, type WebhookKind } from "./webhook-kinds";
/** An organization has at most this many endpoints (409 past it). */
export const MAX_WEBHOOKS = 10;

/** The URL's rules (https, 2,048 characters, public host) are the service's: it answers INVALID_URL and BLOCKED_URL, not a zod 400. */
const urlField = z.string().max(8192, "is far longer than a URL may be (2,048 characters)");
const typesField = z
  .array(z.enum(ALERT_TYPES))
  .max(ALERT_TYPES.length * 2)
  .transform((types) => ALERT_TYPES.filter((type) => types.includes(type)));
const descriptionField = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  .refine((text) => !CONTROL_CHARACTERS.test(text), "must not contain control characters");

/** POST /api/account/webhooks: `kind` defaults to standard, `types` to every alert type. */
export const createWebhookSchema = z.strictObject({
  url: urlField,
  kind: z.enum(WEBHOOK_KINDS).default("standard"),
  types: typesField.optional(),
  description: descriptionField.default(""),
});

/** PATCH /api/account/webhooks/{id}: `kind` cannot change (a new endpoint is a new receiver). */
export const updateWebhookSchema = z
  .strictObject({
    url: urlField.optional(),
    types: typesField.optional(),
    enabled: z.boolean().optional(),
    description: descriptionField.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "send at least one of url, types, enabled, description",
  });

export const WebhookSchema = z.strictObject({
  id: z.string(),
  /** Whole for `standard`; for a chat kind, whole only in the create answer, masked in every other (lib/webhooks/url-mask.ts). */
  url: z.string().meta({
    description:
      "Where deliveries go. A chat kind's URL (every kind but standard) is a credential: whole only in the create answer, masked afterwards (scheme, host, the path up to the first secret part, then …).",
  }),
  kind: z.enum(WEBHOOK_KINDS),
  types: z.array(z.enum(ALERT_TYPES)),
  enabled: z.boolean(),
  description: z.string(),
  createdAt: isoTime,
  /** The last attempt of any delivery, pings included. */
  lastDeliveryAt: isoTime.nullable(),
  /** The HTTP status of the last attempt; null: none yet, or no answer. */
  lastStatus: z.number().int().nullable(),
  /** Failed attempts since the endpoint's last success (pings excluded). */
  consecutiveFailures: z.number().int(),
});

/** The answer of POST (201) and rotate-secret (200): the only times the secret is shown. */
export const WebhookWithSecretSchema = WebhookSchema.extend({ secret: z.string().startsWith("whsec_") });

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const WebhookDeliverySchema = z.strictObject({
  id: z.string(),
  /** The alert event delivered; null for a ping. */
  eventId: z.string().nullable(),
  type: z.string(),
  /** Attempts made so far. */
  attempt: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  /** The HTTP status of the last attempt's answer; null: none yet, or no answer. */
  responseStatus: z.number().int().nullable(),
  /** Not in webhooks.md's list: at most 1 KiB of the last answer's body (the receiver's own words help fix it). */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: isoTime,
  deliveredAt: isoTime.nullable(),
  /** When the next attempt is due (pending only). */
  nextAttemptAt: isoTime.nullable(),
});

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
