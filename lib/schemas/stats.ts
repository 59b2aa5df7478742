import { z } from "zod";
import { LinkStateSchema } from "./monitors";

/**
 * History of the portfolio and of one tracked link (evidence-and-reports.md "History and charts"). Days
 * are UTC calendar days ("YYYY-MM-DD"), oldest first, ending today.
 */

export const HISTORY_WINDOWS = ["30", "90", "365"] as const;
const windowError = { error: "use 30, 90 or 365" };

/** GET /api/account/stats/daily?days=30|90|365 (default 30). */
export const dailyStatsQuerySchema = z.strictObject({ days: z.enum(HISTORY_WINDOWS, windowError).default("30") });
/** GET /api/account/links/{id}/uptime?days=30|90|365 (default 90, the strip of the app's pages). */
export const uptimeQuerySchema = z.strictObject({ days: z.enum(HISTORY_WINDOWS, windowError).default("90") });

/** GET /api/account/links/uptime?ids=a,b,c&days=90: the strips of a page of links (1–100 ids) in one request. */
export const MAX_UPTIME_IDS = 100;
export const uptimeBatchQuerySchema = z.strictObject({
  ids: z
    .string()
    .max(MAX_UPTIME_IDS * 201)
    .regex(
      new RegExp(`^[^,]{1,200}(,[^,]{1,200}){0,${MAX_UPTIME_IDS - 1}}$`),
      `1 to ${MAX_UPTIME_IDS} tracked-link ids, comma-separated`,
    ),
  days: z.enum(HISTORY_WINDOWS, windowError).default("90"),
});

/** What the portfolio looked like at the end of one day: tracked links per state and per verdict. */
export const DailyStatsDaySchema = z.strictObject({
  date: z.iso.date(),
  live: z.number().int(),
  missing: z.number().int(),
  broken: z.number().int(),
  rel_mismatch: z.number().int(),
  anchor_mismatch: z.number().int(),
  pending: z.number().int(),
  counts: z.number().int(),
  at_risk: z.number().int(),
  does_not_count: z.number().int(),
});
export const DailyStatsSchema = z.strictObject({ days: z.array(DailyStatsDaySchema) });

/** One tracked link: its state at the end of each day (null on days before it existed) and its live share. */
export const UptimeSchema = z.strictObject({
  /** Of the time in the window since its first check, the share it was live, one decimal; null before its first check. */
  livePercent: z.number().min(0).max(100).nullable(),
  days: z.array(z.strictObject({ date: z.iso.date(), state: LinkStateSchema.nullable() })),
});

/** The uptimes of the ids asked for that are the organization's tracked links, in the order asked. */
export const UptimeBatchSchema = z.strictObject({
  items: z.array(
    z.strictObject({ id: z.string(), livePercent: UptimeSchema.shape.livePercent, days: UptimeSchema.shape.days }),
  ),
});

export type DailyStatsDay = z.infer<typeof DailyStatsDaySchema>;
export type DailyStats = z.infer<typeof DailyStatsSchema>;
export type Uptime = z.infer<typeof UptimeSchema>;
export type UptimeBatch = z.infer<typeof UptimeBatchSchema>;
