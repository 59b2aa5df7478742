import { z } from "zod";
import { CONTROL_CHARACTERS, idField, isoTime } from "./common";
import { MAX_TAG_LENGTH } from "./monitors";
import { ShareScheduleSchema } from "./share-schedules";

/**
 * Client reports (evidence-and-reports.md "Client reports (share links)"): a read-only page for people
 * without an account, of a tag, a monitor or a saved audit. Requests and answers of
 * /api/account/shares; the page itself (/r/{token}) is not an API route.
 */

export const SHARE_SCOPES = ["tag", "monitor", "audit"] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];
export const MAX_SHARE_TITLE = 200;

/** The field that names what a share of each scope shows. */
export const SCOPE_FIELD = { tag: "tag", monitor: "monitorId", audit: "auditId" } as const satisfies Record<
  ShareScope,
  string
>;
const SCOPE_FIELDS = Object.values(SCOPE_FIELD);

/**
 * POST /api/account/shares. The field of the scope is required; the others must be absent or null.
 * `expiresAt` (null or absent: never) must lie in the future, which the service checks against its clock.
 */
export const createShareSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_SHARE_TITLE, `at most ${MAX_SHARE_TITLE} characters`)
      .refine((title) => !CONTROL_CHARACTERS.test(title), "must not contain control characters"),
    scope: z.enum(SHARE_SCOPES, { error: 'use "tag", "monitor" or "audit"' }),
    tag: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_TAG_LENGTH, `at most ${MAX_TAG_LENGTH} characters`)
      .nullable()
      .optional(),
    monitorId: idField.nullable().optional(),
    auditId: idField.nullable().optional(),
    expiresAt: isoTime.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    const wanted = SCOPE_FIELD[body.scope];
    for (const field of SCOPE_FIELDS) {
      const given = body[field] !== undefined && body[field] !== null;
      if (field === wanted && !given)
        ctx.addIssue({ code: "custom", path: [field], message: `is required for scope "${body.scope}"` });
      if (field !== wanted && given)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `does not belong to scope "${body.scope}" (it takes ${wanted})`,
        });
    }
  });
export type CreateShareInput = z.infer<typeof createShareSchema>;

/**
 * A share as listed: never its token or URL (those are shown once, when it is created). `schedule`: its
 * scheduled report (reports-and-channels.md), null without one.
 */
export const ShareSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  scope: z.enum(SHARE_SCOPES),
  tag: z.string().nullable(),
  monitorId: z.string().nullable(),
  auditId: z.string().nullable(),
  createdAt: isoTime,
  /** `id` is null only if the user's account was deleted since. */
  createdBy: z.strictObject({ id: z.string().nullable(), email: z.string() }),
  expiresAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
  schedule: ShareScheduleSchema.nullable(),
});
export type Share = z.infer<typeof ShareSchema>;

/** The answer of POST /api/account/shares: the share and, this once, its URL `{site}/r/{token}`. */
export const CreatedShareSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  scope: z.enum(SHARE_SCOPES),
  tag: z.string().nullable(),
  monitorId: z.string().nullable(),
  auditId: z.string().nullable(),
  url: z.string(),
  createdAt: isoTime,
  createdBy: z.strictObject({ id: z.string().nullable(), email: z.string() }),
  expiresAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
  schedule: ShareScheduleSchema.nullable(),
});
export type CreatedShare = z.infer<typeof CreatedShareSchema>;

/** What the app's Reports page offers to share: the organization's tags, monitored pages and saved audits. */
export interface ShareChoices {
  tags: string[];
  monitors: Array<{ id: string; url: string }>;
  audits: Array<{ id: string; url: string; title: string | null; createdAt: string }>;
}
