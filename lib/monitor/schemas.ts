import { z } from "zod";
import { MAX_URL_LENGTH } from "../limits";

/**
 * The zod schemas of the monitoring routes (strict: an unknown field is a 400 naming it). The rules that
 * need the configuration (the shortest interval) are checked by the services, which also name the field.
 */

export const INTERVALS = [60, 360, 720, 1440, 10080] as const;
export const DEFAULT_INTERVAL = 1440;
export const LINK_STATES = ["pending", "live", "missing", "broken", "rel_mismatch", "anchor_mismatch"] as const;
export const MATCH_MODES = ["exact", "prefix", "domain"] as const;
export const EXPECTED_RELS = ["follow", "nofollow", "sponsored", "ugc"] as const;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 50;
export const MAX_NOTES_LENGTH = 2000;
export const MAX_ANCHOR_LENGTH = 1000;
/** Links one POST /monitors may carry (an import is the way to add thousands). */
export const MAX_LINKS_PER_REQUEST = 100;

const interval = z
  .number()
  .int()
  .refine((value) => (INTERVALS as readonly number[]).includes(value), { message: `must be one of ${INTERVALS.join(", ")}` });

/** Tags: trimmed, 1–50 characters each, at most 20, duplicates dropped (first spelling kept). */
export const tagsSchema = z
  .array(z.string().trim().min(1, "a tag must not be empty").max(MAX_TAG_LENGTH, `a tag has at most ${MAX_TAG_LENGTH} characters`))
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .transform((tags) => dedupeTags(tags));

export function dedupeTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/** A YYYY-MM-DD calendar date that exists. */
export const dateSchema = z.string().refine(isCalendarDate, { message: "must be a date as YYYY-MM-DD" });

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const nullableText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).nullable().transform((value) => (value === "" ? null : value));

/** The expectations and bookkeeping of a tracked link (everything but where it points). */
const linkFields = {
  expectedAnchor: nullableText(MAX_ANCHOR_LENGTH).optional(),
  expectedRel: z.enum(EXPECTED_RELS).nullable().optional(),
  notes: nullableText(MAX_NOTES_LENGTH).optional(),
  cost: z.number().finite().min(0, "must be 0 or more").max(1e12).nullable().optional(),
  expiresOn: dateSchema.nullable().optional(),
};

export const newLinkSchema = z.strictObject({
  target: z.string().min(1).max(MAX_URL_LENGTH),
  match: z.enum(MATCH_MODES).optional(),
  ...linkFields,
});
export type NewLinkInput = z.infer<typeof newLinkSchema>;

export const linkPatchSchema = z.strictObject({
  target: z.string().min(1).max(MAX_URL_LENGTH).optional(),
  match: z.enum(MATCH_MODES).optional(),
  ...linkFields,
});
export type LinkPatchInput = z.infer<typeof linkPatchSchema>;

export const newMonitorSchema = z.strictObject({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  intervalMinutes: interval.optional(),
  tags: tagsSchema.optional(),
  links: z.array(newLinkSchema).max(MAX_LINKS_PER_REQUEST, `at most ${MAX_LINKS_PER_REQUEST} links; import a CSV for more`).optional(),
});
export type NewMonitorInput = z.infer<typeof newMonitorSchema>;

export const monitorPatchSchema = z.strictObject({
  intervalMinutes: interval.optional(),
  paused: z.boolean().optional(),
  tags: tagsSchema.optional(),
});
export type MonitorPatchInput = z.infer<typeof monitorPatchSchema>;

export const trackSchema = z.strictObject({ position: z.number().int().min(1) });

const listPaging = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
};

/** GET /api/account/links and its export: filters, then the page. */
export const linkFiltersSchema = z.strictObject({
  state: z.enum(LINK_STATES).optional(),
  tag: z.string().trim().min(1).max(MAX_TAG_LENGTH).optional(),
  monitorId: z.string().min(1).max(200).optional(),
  q: z.string().trim().min(1).max(200).optional(),
});
export const linkListSchema = linkFiltersSchema.extend(listPaging);
export type LinkFilters = z.infer<typeof linkFiltersSchema>;

export const exportQuerySchema = linkFiltersSchema.extend({ format: z.enum(["csv", "json"]).default("csv") });

export const importQuerySchema = z.strictObject({ dryRun: z.enum(["0", "1", "true", "false"]).optional() });
