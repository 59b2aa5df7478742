import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { EvidenceReason, LinkBox } from "../../schemas/evidence";
import type { Verdict } from "../../schemas/verdict";
import { bytea } from "./audits";
import { organizationRef, time } from "./columns";
import { monitor, trackedLink, type StoredCurrentLink } from "./monitors";

/**
 * Evidence (evidence-and-reports.md "Evidence"): what a monitored page showed at one moment, kept as proof.
 * The page's HTML as the server sent it is stored gzip-compressed beside its SHA-256 (of the bytes as
 * received, before compression); the screenshot is a PNG (already compressed). Rows are never updated;
 * they go with their monitor or tracked link, and after EVIDENCE_RETENTION_DAYS (lib/evidence/retention.ts).
 * Lists read the small columns only: PostgreSQL keeps the large ones out of line (TOAST).
 */
export const evidence = pgTable(
  "evidence",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    trackedLinkId: text("tracked_link_id")
      .notNull()
      .references(() => trackedLink.id, { onDelete: "cascade" }),
    /** The check whose render it comes from; null for a capture on request. */
    checkId: text("check_id"),
    capturedAt: time("captured_at").notNull(),
    reason: text("reason").$type<EvidenceReason>().notNull(),
    /** The monitored URL, the tracked link's target and match mode at capture (the report states them). */
    pageUrl: text("page_url").notNull(),
    target: text("target").notNull(),
    match: text("match").$type<"exact" | "prefix" | "domain">().notNull(),
    finalUrl: text("final_url"),
    httpStatus: integer("http_status"),
    htmlSha256: text("html_sha256"),
    htmlBytes: integer("html_bytes"),
    htmlGzip: bytea("html_gzip"),
    link: jsonb("link").$type<StoredCurrentLink>(),
    verdict: jsonb("verdict").$type<Verdict>(),
    screenshotPng: bytea("screenshot_png"),
    screenshotWidth: integer("screenshot_width"),
    screenshotHeight: integer("screenshot_height"),
    screenshotBytes: integer("screenshot_bytes"),
    linkBox: jsonb("link_box").$type<LinkBox>(),
    /** Googlebot's render (google-view.md §2), kept when the verdict says the two views differ; null otherwise. */
    googleScreenshotPng: bytea("google_screenshot_png"),
    googleScreenshotWidth: integer("google_screenshot_width"),
    googleScreenshotHeight: integer("google_screenshot_height"),
    googleScreenshotBytes: integer("google_screenshot_bytes"),
    /** The link's box in Googlebot's PNG, when present there. */
    googleLinkBox: jsonb("google_link_box").$type<LinkBox>(),
  },
  (table) => [
    // GET /links/{id}/evidence, newest first.
    index("evidence_link_captured_idx").on(table.trackedLinkId, table.capturedAt, table.id),
    // Retention: the oldest first.
    index("evidence_captured_idx").on(table.capturedAt),
    // One record per tracked link per check (captures on request have no check).
    uniqueIndex("evidence_link_check_uq").on(table.trackedLinkId, table.checkId),
  ],
);
