import { index, pgTable, text } from "drizzle-orm/pg-core";
import type { LinkState } from "../../schemas/monitors";
import type { VerdictValue } from "../../schemas/verdict";
import { organizationRef, time } from "./columns";

/**
 * What is left of a deleted tracked link for the portfolio's history (evidence-and-reports.md "History
 * and charts": a link is counted on the days it existed, and only those). Deleting a link or its monitor
 * deletes its transitions with it; just before, its states become spans here: [startedAt, endedAt) in
 * `state`, the last one ending at the deletion. Nothing else reads them, and no id here is a live row.
 */
export const retiredLinkSpan = pgTable(
  "retired_link_span",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    trackedLinkId: text("tracked_link_id").notNull(),
    state: text("state").$type<LinkState>().notNull(),
    startedAt: time("started_at").notNull(),
    endedAt: time("ended_at").notNull(),
  },
  // The daily stats read the spans that end inside their window (older ones add nothing to it).
  (table) => [index("retired_link_span_org_ended_idx").on(table.organizationId, table.endedAt)],
);

/**
 * The same for a deleted link's verdict (placement-verdict.md): [startedAt, endedAt) with `value`, one span
 * per value it had, from its verdict changes; the time it had no verdict is no span.
 */
export const retiredVerdictSpan = pgTable(
  "retired_verdict_span",
  {
    id: text("id").primaryKey(),
    organizationId: organizationRef(),
    trackedLinkId: text("tracked_link_id").notNull(),
    value: text("value").$type<VerdictValue>().notNull(),
    startedAt: time("started_at").notNull(),
    endedAt: time("ended_at").notNull(),
  },
  (table) => [index("retired_verdict_span_org_ended_idx").on(table.organizationId, table.endedAt)],
);
