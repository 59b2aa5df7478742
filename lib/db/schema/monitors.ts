import { sql } from "drizzle-orm";
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { AnalyzedLink } from "../../analyzer";
import { organizationRef, time } from "./columns";

/**
 * Placement monitoring (docs/spec/account-api.md "Monitored pages and tracked links"): monitored pages, the links
 * tracked on them, every check of a page and every observation of a tracked link in a check, so history
 * is a query. The link-state machine is lib/monitor/state.ts; this is only where its results are kept.
 */

/** The public Link fields of a tracked link as last observed (TrackedLink.current), group rules applied. */
export type StoredLink = AnalyzedLink;

/**
 * TrackedLink.current as stored since signals exist: the public Link fields and the link's signals (older
 * rows have none, or none of inGoogleView: read them through signedInLinkView).
 */
export type StoredCurrentLink = StoredLink & { signals?: LinkSignals };

export type { LinkState, MonitorStatus } from "../../schemas/monitors";
import type { LinkState, MonitorStatus } from "../../schemas/monitors";
import type { LinkSignals, NOINDEX_SOURCES, RobotsTxtAnswer, Verdict, VerdictValue } from "../../schemas/verdict";
import type { CrawlerAgent, Crawlers } from "../../schemas/crawlers";
import type { GoogleView, GoogleViewComparison } from "../../schemas/google-view";

export const monitor = pgTable(
  "monitor",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    /** WHATWG serialization without the fragment: one monitor per URL per organization. */
    url: text("url").notNull(),
    intervalMinutes: integer("interval_minutes").notNull(),
    paused: boolean("paused").notNull().default(false),
    tags: text("tags").array().notNull().default([]),
    status: text("status").$type<MonitorStatus>().notNull().default("pending"),
    lastCheckedAt: time("last_checked_at"),
    /** When the scheduler runs the next check (a confirming check comes sooner than the interval). */
    nextCheckAt: time("next_check_at").notNull(),
    consecutivePageErrors: integer("consecutive_page_errors").notNull().default(0),
    pageHttpStatus: integer("page_http_status"),
    pageNoindex: boolean("page_noindex"),
    pageCanonicalUrl: text("page_canonical_url"),
    pageTitle: text("page_title"),
    /** Page signals of the latest check that loaded the page (placement-verdict.md); null before it. */
    pageFinalUrl: text("page_final_url"),
    pageNoindexSource: text("page_noindex_source").$type<(typeof NOINDEX_SOURCES)[number]>(),
    pageRobotsTxt: text("page_robots_txt").$type<RobotsTxtAnswer>(),
    /**
     * Crawler access (google-view.md §3) as the newest robots.txt reading a check brought, and when that
     * robots.txt was fetched (instances cache it an hour each: an older reading never replaces a newer one).
     */
    pageCrawlers: jsonb("page_crawlers").$type<Crawlers>(),
    pageCrawlersReadAt: time("page_crawlers_read_at"),
    /**
     * The disallowed agents of the newest reading that could be read (an unavailable robots.txt keeps
     * them), in the agents' order; null before one. What `crawler_access_changed` compares with.
     */
    blockedCrawlers: text("blocked_crawlers").array().$type<CrawlerAgent[]>(),
    /** google-view.md §2: the off switch of the Googlebot render (default on). */
    googleView: boolean("google_view").notNull().default(true),
    /**
     * The last Google view rendered (Monitor.page.googleView), and the unique resolved hrefs of its links
     * in page order (null when unavailable): between renders it stands, so every check reads inGoogleView
     * and `shown_only_to_googlebot` from it. Null before the first render.
     */
    pageGoogleView: jsonb("page_google_view").$type<GoogleView>(),
    googleViewHrefs: jsonb("google_view_hrefs").$type<string[]>(),
    /** The latest check's comparison of the two renders (the "Google's view" panel); null before one. */
    googleViewComparison: jsonb("google_view_comparison").$type<GoogleViewComparison>(),
    /**
     * A check in progress holds the monitor until this time (a scheduled check and "Check now" never run
     * at once; a crashed instance's hold simply runs out).
     */
    checkingUntil: time("checking_until"),
    createdById: text("created_by_id"),
    createdAt: time("created_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("monitor_org_url_uq").on(table.organizationId, table.url),
    index("monitor_org_created_idx").on(table.organizationId, table.createdAt, table.id),
    index("monitor_due_idx").on(table.nextCheckAt),
  ],
);

export const trackedLink = pgTable(
  "tracked_link",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
    match: text("match").$type<"exact" | "prefix" | "domain">().notNull(),
    expectedAnchor: text("expected_anchor"),
    expectedRel: text("expected_rel").$type<"follow" | "nofollow" | "sponsored" | "ugc">(),
    state: text("state").$type<LinkState>().notNull().default("pending"),
    /**
     * An unconfirmed loss: the state a check saw ("missing" or "broken") and how many consecutive checks
     * saw it. The state itself changes once `pendingCount` reaches MONITOR_CONFIRM_CHECKS.
     */
    pendingState: text("pending_state").$type<"missing" | "broken">(),
    pendingCount: integer("pending_count").notNull().default(0),
    firstSeenAt: time("first_seen_at"),
    lastSeenAt: time("last_seen_at"),
    current: jsonb("current").$type<StoredCurrentLink>(),
    /** The placement verdict (lib/verdict); null until a check found the link or confirmed its loss (rows older than verdicts: until their next check). */
    verdict: jsonb("verdict").$type<Verdict>(),
    /** The verdict's value, kept by the database beside the state so the daily counts read both from one index. */
    verdictValue: text("verdict_value")
      .$type<VerdictValue>()
      .generatedAlwaysAs(sql`("verdict" ->> 'value')`),
    /** How many links of the page matched at the latest check that loaded it; null before one. */
    matchCount: integer("match_count"),
    notes: text("notes"),
    cost: doublePrecision("cost"),
    expiresOn: date("expires_on", { mode: "string" }),
    source: text("source").$type<"manual" | "import" | "audit">().notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    // One tracked link per target on a page: the key of imports (same file twice → unchanged).
    uniqueIndex("tracked_link_monitor_target_uq").on(table.monitorId, table.target),
    index("tracked_link_org_created_idx").on(table.organizationId, table.createdAt, table.id),
    // ?state= filters, and the daily stats' counts now (state and verdict value from the index alone).
    index("tracked_link_org_state_idx").on(table.organizationId, table.state, table.verdictValue),
    // GET /links?verdict=: the value inside the jsonb, per organization.
    index("tracked_link_org_verdict_idx").on(table.organizationId, sql`(${table.verdict} ->> 'value')`),
    index("tracked_link_expires_idx").on(table.expiresOn),
  ],
);

/** One check of a monitored page (GET /api/account/monitors/{id}/checks). */
export const monitorCheck = pgTable(
  "monitor_check",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    trigger: text("trigger").$type<"schedule" | "manual">().notNull(),
    /** The due time the scheduler ran it for (null for "Check now"). */
    dueAt: time("due_at"),
    startedAt: time("started_at").notNull(),
    finishedAt: time("finished_at").notNull(),
    outcome: text("outcome").$type<"ok" | "page_error">().notNull(),
    pageStatus: integer("page_status"),
    errorCode: text("error_code"),
    linksFound: integer("links_found"),
    noindex: boolean("noindex"),
    canonicalUrl: text("canonical_url"),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("monitor_check_monitor_idx").on(table.monitorId, table.createdAt, table.id),
    // A scheduled due time is checked once, whatever the number of instances.
    uniqueIndex("monitor_check_due_uq").on(table.monitorId, table.dueAt),
  ],
);

/** One row per tracked link per check: what the check saw of it (history is a query). */
export const linkObservation = pgTable(
  "link_observation",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    checkId: text("check_id")
      .notNull()
      .references(() => monitorCheck.id, { onDelete: "cascade" }),
    trackedLinkId: text("tracked_link_id")
      .notNull()
      .references(() => trackedLink.id, { onDelete: "cascade" }),
    /** What this check alone saw ("missing", "broken", "live", …), before confirmation rules. */
    observed: text("observed").$type<LinkState>().notNull(),
    link: jsonb("link").$type<StoredLink>(),
    stateBefore: text("state_before").$type<LinkState>().notNull(),
    stateAfter: text("state_after").$type<LinkState>().notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("link_observation_link_idx").on(table.trackedLinkId, table.createdAt, table.id),
    index("link_observation_check_idx").on(table.checkId),
  ],
);

/** A state change of a tracked link (GET /api/account/links/{id}/history). */
export const linkTransition = pgTable(
  "link_transition",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    trackedLinkId: text("tracked_link_id")
      .notNull()
      .references(() => trackedLink.id, { onDelete: "cascade" }),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    checkId: text("check_id").references(() => monitorCheck.id, { onDelete: "set null" }),
    fromState: text("from_state").$type<LinkState>().notNull(),
    toState: text("to_state").$type<LinkState>().notNull(),
    before: jsonb("before").$type<StoredLink | null>(),
    after: jsonb("after").$type<StoredLink | null>(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("link_transition_link_idx").on(table.trackedLinkId, table.createdAt, table.id),
    // The portfolio's daily stats read an organization's changes inside a window of days (lib/stats):
    // with both states in the index, from the index alone.
    index("link_transition_org_created_idx").on(table.organizationId, table.createdAt, table.fromState, table.toState),
  ],
);

/**
 * A change of a tracked link's verdict value (placement-verdict.md), its first verdict (from null) and a
 * reset to null (a new target) included: what the portfolio's daily counts of verdicts work back from
 * (lib/stats). Written in the same transaction as the verdict (lib/monitor/verdict-history.ts); a
 * change of reasons alone is not one.
 */
export const verdictTransition = pgTable(
  "verdict_transition",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    trackedLinkId: text("tracked_link_id")
      .notNull()
      .references(() => trackedLink.id, { onDelete: "cascade" }),
    /** The check that changed it; null for an edit that reset it (or a backfilled first verdict without its check). */
    checkId: text("check_id").references(() => monitorCheck.id, { onDelete: "set null" }),
    fromValue: text("from_value").$type<VerdictValue>(),
    toValue: text("to_value").$type<VerdictValue>(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (table) => [
    // A deleted link's verdict spans (lib/monitor/retire.ts) read one link's changes in order.
    index("verdict_transition_link_idx").on(table.trackedLinkId, table.createdAt, table.id),
    // The daily stats read an organization's changes inside a window of days, from the index alone.
    index("verdict_transition_org_created_idx").on(
      table.organizationId,
      table.createdAt,
      table.fromValue,
      table.toValue,
    ),
  ],
);
