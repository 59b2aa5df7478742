import { z } from "zod";
import { LinkSchema } from "../api/schemas";
import { MAX_URL_LENGTH } from "../limits";
import { isoTime, listPaging } from "./common";
import { GoogleViewComparisonSchema } from "./google-view";
import { PageSignalsSchema, SignedInLinkSchema, VERDICT_VALUES, VerdictSchema } from "./verdict";

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
/** POST /monitors' body cap: its 100 links, each with a 2,048-character target, anchor and notes, pass the default 16 KiB. */
export const MONITOR_BODY_MAX_BYTES = 512 * 1024;

/** POST /api/account/links/import: at most this many data rows and bytes of CSV (413 past either). */
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The 413 of an import past either limit: the body's size is checked as it arrives, the rows once it is read. */
export const IMPORT_TOO_LARGE = {
  message: `An import holds at most ${IMPORT_MAX_ROWS.toLocaleString("en-US")} rows and 5 MiB.`,
  hint: "Split the file and import the parts one after the other.",
} as const;

const interval = z
  .number()
  .int()
  .refine((value) => (INTERVALS as readonly number[]).includes(value), {
    message: `must be one of ${INTERVALS.join(", ")}`,
  });

/** Tags: trimmed, 1–50 characters each, at most 20, duplicates dropped (first spelling kept). */
export const tagsSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1, "a tag must not be empty")
      .max(MAX_TAG_LENGTH, `a tag has at most ${MAX_TAG_LENGTH} characters`),
  )
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

const nullableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .nullable()
    .transform((value) => (value === "" ? null : value));

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

/** google-view.md §2: render the page as Googlebot too (default true); off: no second render, no reason of its own. */
const googleViewSwitch = z.boolean().meta({
  description: "Also render the page as Googlebot Smartphone (google-view.md); default true.",
});

export const newMonitorSchema = z.strictObject({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  intervalMinutes: interval.optional(),
  tags: tagsSchema.optional(),
  googleView: googleViewSwitch.optional(),
  links: z
    .array(newLinkSchema)
    .max(MAX_LINKS_PER_REQUEST, `at most ${MAX_LINKS_PER_REQUEST} links; import a CSV for more`)
    .optional(),
});
export type NewMonitorInput = z.infer<typeof newMonitorSchema>;

export const monitorPatchSchema = z.strictObject({
  intervalMinutes: interval.optional(),
  paused: z.boolean().optional(),
  tags: tagsSchema.optional(),
  googleView: googleViewSwitch.optional(),
});
export type MonitorPatchInput = z.infer<typeof monitorPatchSchema>;

/** GET /api/account/links and its export: filters, then the page. */
export const linkFiltersSchema = z.strictObject({
  state: z.enum(LINK_STATES).optional(),
  tag: z.string().trim().min(1).max(MAX_TAG_LENGTH).optional(),
  monitorId: z.string().min(1).max(200).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  /** placement-verdict.md: links whose verdict has this value (links without a verdict never match). */
  verdict: z.enum(VERDICT_VALUES).optional(),
});
export const linkListSchema = linkFiltersSchema.extend(listPaging);
export type LinkFilters = z.infer<typeof linkFiltersSchema>;

export const exportQuerySchema = linkFiltersSchema.extend({ format: z.enum(["csv", "json"]).default("csv") });

export const importQuerySchema = z.strictObject({ dryRun: z.enum(["0", "1", "true", "false"]).optional() });

/** GET /api/account/links/{id}/history, GET /api/account/monitors/{id}/checks: the paging alone. */
export const pageQuerySchema = z.strictObject(listPaging);

/* ---- Answers (docs/spec/account-api.md "Monitored pages and tracked links"), exactly as services build them */

export const LinkStateSchema = z.enum(LINK_STATES);
/** Each state's name as people read it (badges, charts, report emails and PDFs). */
export const LINK_STATE_LABELS: Record<(typeof LINK_STATES)[number], string> = {
  live: "Live",
  missing: "Missing",
  broken: "Broken",
  rel_mismatch: "Rel mismatch",
  anchor_mismatch: "Anchor mismatch",
  pending: "Pending",
};
export const MonitorStatusSchema = z.enum(["pending", "ok", "page_error"]);

export const TrackedLinkSchema = z.strictObject({
  id: z.string(),
  monitorId: z.string(),
  target: z.string(),
  match: z.enum(MATCH_MODES),
  expectedAnchor: z.string().nullable(),
  expectedRel: z.enum(EXPECTED_RELS).nullable(),
  state: LinkStateSchema,
  firstSeenAt: isoTime.nullable(),
  lastSeenAt: isoTime.nullable(),
  /** The best match as last observed (the public Link fields and its signals), or null. */
  current: SignedInLinkSchema.nullable(),
  /** Does the link still pass value, and why not (placement-verdict.md); null until a check found it. */
  verdict: VerdictSchema.nullable(),
  /** Links of the page that matched at the latest check that loaded it (0: missing); null before one. */
  matchCount: z.number().int().nullable(),
  notes: z.string().nullable(),
  cost: z.number().nullable(),
  expiresOn: z.string().nullable(),
  source: z.enum(["manual", "import", "audit"]),
  createdAt: isoTime,
});

/**
 * What the latest checks saw of the page itself (placement-verdict.md "Page signals"); null until the
 * first check. httpStatus is the latest check's; the rest the latest check's that loaded the page.
 */
export const MonitorPageSchema = PageSignalsSchema;

export const MonitorSchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  intervalMinutes: z.number().int(),
  paused: z.boolean(),
  tags: z.array(z.string()),
  status: MonitorStatusSchema,
  lastCheckedAt: isoTime.nullable(),
  nextCheckAt: isoTime,
  consecutivePageErrors: z.number().int(),
  page: MonitorPageSchema.nullable(),
  /** The off switch of Google's view (google-view.md §2); `page.googleView` is the last one rendered. */
  googleView: z.boolean(),
  /** The links only one of the two renders has (the "Google's view" panel); null before a check compared them. */
  googleViewComparison: GoogleViewComparisonSchema.nullable(),
  createdAt: isoTime,
  links: z.array(TrackedLinkSchema),
});

export const CheckSchema = z.strictObject({
  id: z.string(),
  startedAt: isoTime,
  finishedAt: isoTime,
  outcome: z.enum(["ok", "page_error"]),
  pageStatus: z.number().int().nullable(),
  errorCode: z.string().nullable(),
  linksFound: z.number().int().nullable(),
});

const linkSnapshot = z.strictObject({ state: LinkStateSchema, link: LinkSchema.nullable() });

/** One state change of a tracked link (its history). */
export const TransitionSchema = z.strictObject({
  id: z.string(),
  trackedLinkId: z.string(),
  checkId: z.string().nullable(),
  fromState: LinkStateSchema,
  toState: LinkStateSchema,
  before: linkSnapshot,
  after: linkSnapshot,
  createdAt: isoTime,
});

export const ImportResultSchema = z.strictObject({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Rows counted from 1 at the header row. */
  errors: z.array(z.strictObject({ row: z.number().int(), message: z.string() })),
});

export type LinkState = z.infer<typeof LinkStateSchema>;
export type MonitorStatus = z.infer<typeof MonitorStatusSchema>;
export type TrackedLink = z.infer<typeof TrackedLinkSchema>;
export type Monitor = z.infer<typeof MonitorSchema>;
export type Check = z.infer<typeof CheckSchema>;
export type Transition = z.infer<typeof TransitionSchema>;
export type ImportResult = z.infer<typeof ImportResultSchema>;
