import { z } from "zod";
import { isoTime } from "./common";

/** What owners and admins read about their organization: the email outbox and the activity log. */

/** GET /api/account/outbox (owners): an email and its delivery. Other members' personal links are hidden. */
export const OutboxItemSchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: isoTime,
  sentAt: isoTime.nullable(),
});
export type OutboxItem = z.infer<typeof OutboxItemSchema>;

/**
 * GET /api/auth/list-sessions (Better Auth's own answer): the user's signed-in devices, as Settings shows
 * them (the token signs one out: POST /api/auth/revoke-session). The rest of each session is left out.
 */
export const DeviceSessionSchema = z.object({
  id: z.string(),
  token: z.string(),
  createdAt: isoTime,
  userAgent: z.string().nullish(),
  ipAddress: z.string().nullish(),
});
export type DeviceSession = z.infer<typeof DeviceSessionSchema>;

/** GET /api/account/activity-log (admin+; also at its first path, /audit-log): who did what and when. */
export const ActivityLogItemSchema = z.strictObject({
  id: z.string(),
  action: z.string(),
  actor: z.strictObject({ id: z.string().nullable(), email: z.string().nullable() }),
  target: z.strictObject({ type: z.string(), id: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  ipAddress: z.string().nullable(),
  createdAt: isoTime,
});
export type ActivityLogItem = z.infer<typeof ActivityLogItemSchema>;

/**
 * POST /api/auth/two-factor/enable (Better Auth's own answer): the authenticator URI (the QR code's
 * content) and the 10 backup codes, shown once. The rest of the answer is left out.
 */
export const TwoFactorEnrolmentSchema = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolmentSchema>;

/** POST /api/auth/two-factor/generate-backup-codes (Better Auth's own answer): a new set, shown once. */
export const BackupCodesSchema = z.object({ backupCodes: z.array(z.string()) });

/** POST /api/auth/sign-in/email (Better Auth's own answer): whether a code is still needed. */
export const SignInAnswerSchema = z.object({ twoFactorRedirect: z.boolean().optional() });
