import { z } from "zod";
import { isoTime } from "./common";

/**
 * Scheduled reports on a share (docs/spec/reports-and-channels.md "Scheduled reports"): the body of
 * PUT /api/account/shares/{id}/schedule, the schedule as every Share answer carries it, and the answer of
 * POST /api/account/shares/{id}/send-test.
 */

export const SCHEDULE_CADENCES = ["weekly", "monthly"] as const;
export type ScheduleCadence = (typeof SCHEDULE_CADENCES)[number];
export const RECIPIENT_STATUSES = ["pending", "confirmed", "unsubscribed"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const MAX_RECIPIENTS = 10;
/** Monthly reports go out on days every month has. */
export const MAX_DAY_OF_MONTH = 28;
/** Sunday first, as JavaScript's getUTCDay() counts. */
export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const address = z
  .string()
  .trim()
  .max(320, "at most 320 characters")
  .pipe(z.email("must be an email address"))
  .transform((value) => value.toLowerCase());

/**
 * PUT /api/account/shares/{id}/schedule: the whole schedule. `weekday` belongs to weekly reports and
 * `dayOfMonth` to monthly ones; each is required for its cadence and refused for the other.
 */
export const scheduleBodySchema = z
  .strictObject({
    cadence: z.enum(SCHEDULE_CADENCES, { error: 'use "weekly" or "monthly"' }),
    weekday: z.number().int().min(0).max(6, "0 (Sunday) to 6 (Saturday)").nullable().optional(),
    dayOfMonth: z.number().int().min(1).max(MAX_DAY_OF_MONTH, `1 to ${MAX_DAY_OF_MONTH}`).nullable().optional(),
    hourUtc: z.number().int().min(0).max(23, "0 to 23 (UTC)"),
    recipients: z
      .array(address)
      .min(1, "name at least one address")
      .max(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} addresses`),
  })
  .superRefine((body, ctx) => {
    const wanted = body.cadence === "weekly" ? "weekday" : "dayOfMonth";
    const other = body.cadence === "weekly" ? "dayOfMonth" : "weekday";
    if (body[wanted] === undefined || body[wanted] === null)
      ctx.addIssue({ code: "custom", path: [wanted], message: `is required for ${body.cadence} reports` });
    if (body[other] !== undefined && body[other] !== null)
      ctx.addIssue({ code: "custom", path: [other], message: `does not belong to ${body.cadence} reports` });
    body.recipients.forEach((email, index) => {
      if (body.recipients.indexOf(email) !== index)
        ctx.addIssue({ code: "custom", path: ["recipients", index], message: `${email} is listed twice` });
    });
  });
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

export const ScheduleRecipientSchema = z.strictObject({
  email: z.string(),
  /** `pending` until the address confirms; only `confirmed` addresses get reports. */
  status: z.enum(RECIPIENT_STATUSES),
});
export type ScheduleRecipient = z.infer<typeof ScheduleRecipientSchema>;

export const ShareScheduleSchema = z.strictObject({
  cadence: z.enum(SCHEDULE_CADENCES),
  weekday: z.number().int().nullable(),
  dayOfMonth: z.number().int().nullable(),
  hourUtc: z.number().int(),
  recipients: z.array(ScheduleRecipientSchema),
  nextSendAt: isoTime,
  lastSentAt: isoTime.nullable(),
});
export type ShareSchedule = z.infer<typeof ShareScheduleSchema>;

/** POST /api/account/shares/{id}/send-test: where the test went and what it is called. */
export const SentTestSchema = z.strictObject({ to: z.string(), subject: z.string() });
export type SentTest = z.infer<typeof SentTestSchema>;

/** "every Monday at 09:00 UTC", "on day 1 of every month at 06:00 UTC". */
export function scheduleWords(schedule: Pick<ShareSchedule, "cadence" | "weekday" | "dayOfMonth" | "hourUtc">): string {
  const hour = `${String(schedule.hourUtc).padStart(2, "0")}:00 UTC`;
  return schedule.cadence === "weekly"
    ? `every ${WEEKDAY_NAMES[schedule.weekday ?? 1]} at ${hour}`
    : `on day ${schedule.dayOfMonth ?? 1} of every month at ${hour}`;
}
