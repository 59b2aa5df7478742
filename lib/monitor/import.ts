import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { monitor, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import { hasNul, nulMessage } from "../http/nul";
import { uniqueViolation } from "../db/errors";
import { parseCsv, unguardCell } from "./csv-reader";
import {
  DEFAULT_INTERVAL,
  EXPECTED_RELS,
  IMPORT_MAX_ROWS,
  IMPORT_TOO_LARGE,
  MATCH_MODES,
  MAX_ANCHOR_LENGTH,
  MAX_NOTES_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  dedupeTags,
  isCalendarDate,
} from "../schemas/monitors";
import { owned } from "./scope";
import { monitorUrlFor, targetFor } from "./targets";
import { resetToPending } from "./reset-link";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * POST /api/account/links/import: tracked links from CSV (header row required). Every row is validated;
 * valid rows are imported and every invalid row is reported with its number (the header is row 1; a
 * quoted cell spanning lines is still one row), none dropped silently. A row's key is (page_url,
 * target_url): a new key creates the link (and its page's monitor, due at once), a known one updates the
 * fields the file has columns for, so the same file imported twice is all `unchanged`. Tags belong to the
 * page: a row's tags are added to its monitor's (never removed). All writes are one transaction and a
 * handful of batched statements (5,000 rows in a few seconds).
 */

export const IMPORT_COLUMNS = [
  "page_url",
  "target_url",
  "match",
  "expected_anchor",
  "expected_rel",
  "tags",
  "expires_on",
  "cost",
  "notes",
] as const;
/** The export's extra columns: accepted and ignored, so an export imports as it is. */
const READ_ONLY_COLUMNS = [
  "state",
  "first_seen_at",
  "last_seen_at",
  "verdict",
  "verdict_reasons",
  "in_google_view",
  "blocked_crawlers",
] as const;
type Column = (typeof IMPORT_COLUMNS)[number];

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  errors: Array<{ row: number; message: string }>;
}

/** The fields a row sets (only those whose column the file has). */
interface RowFields {
  expectedAnchor?: string | null;
  expectedRel?: TrackedLinkRow["expectedRel"];
  expiresOn?: string | null;
  cost?: number | null;
  notes?: string | null;
}

interface ParsedRow {
  row: number;
  pageUrl: string;
  target: string;
  match: TrackedLinkRow["match"];
  /** Whether the file gave a match mode (else an existing link keeps its own). */
  matchGiven: boolean;
  tags: string[];
  fields: RowFields;
}

const tooLarge = () => new ApiError("PAYLOAD_TOO_LARGE", IMPORT_TOO_LARGE.message, { hint: IMPORT_TOO_LARGE.hint });

/** Splits the file into its header's column positions and data records (413 past the row limit). */
function readTable(text: string): {
  columns: Map<Column, number>;
  width: number;
  records: Array<{ row: number; cells: string[] }>;
} {
  const records = parseCsv(text);
  const header = records[0];
  if (!header || header.every((cell) => cell.trim() === "")) {
    throw new ApiError("INVALID_REQUEST", "header: the first row must name the columns.", {
      hint: `Start the file with a header row: ${IMPORT_COLUMNS.join(",")}`,
    });
  }
  const columns = new Map<Column, number>();
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if ((READ_ONLY_COLUMNS as readonly string[]).includes(name)) return;
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name)) {
      throw new ApiError("INVALID_REQUEST", `header: unknown column "${raw.slice(0, 50)}".`, {
        hint: `Columns: ${IMPORT_COLUMNS.join(", ")} (page_url and target_url required).`,
      });
    }
    if (columns.has(name as Column)) throw new ApiError("INVALID_REQUEST", `header: column "${name}" appears twice.`);
    columns.set(name as Column, index);
  });
  for (const required of ["page_url", "target_url"] as const) {
    if (!columns.has(required))
      throw new ApiError("INVALID_REQUEST", `header: the column "${required}" is required.`, {
        hint: `Columns: ${IMPORT_COLUMNS.join(", ")}.`,
      });
  }
  const data = records
    .slice(1)
    .map((cells, index) => ({ row: index + 2, cells }))
    // A blank line is not a row of data.
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ""));
  if (data.length > IMPORT_MAX_ROWS) throw tooLarge();
  return { columns, width: header.length, records: data };
}

/** Splits a tags cell on `|` or `;`. */
export function splitTags(cell: string): string[] {
  return dedupeTags(
    cell
      .split(/[|;]/)
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ""),
  );
}

function parseRow(
  row: number,
  cells: string[],
  columns: Map<Column, number>,
  width: number,
  allowPrivateHosts: readonly string[],
): ParsedRow {
  if (cells.length !== width) throw new Error(`expected ${width} cells like the header, found ${cells.length}.`);
  for (const [name, index] of columns) if (hasNul(cells[index] ?? "")) throw new Error(nulMessage(name));
  const cell = (name: Column): string | undefined => {
    const index = columns.get(name);
    // Line breaks inside a quoted cell are stored as \n, whichever the file used.
    return index === undefined
      ? undefined
      : unguardCell(cells[index] ?? "")
          .trim()
          .replace(/\r\n?/g, "\n");
  };
  const pageUrl = monitorUrlFor(cell("page_url") ?? "", allowPrivateHosts, "page_url");
  const matchCell = cell("match");
  if (matchCell && !(MATCH_MODES as readonly string[]).includes(matchCell))
    throw new Error(`match: must be one of ${MATCH_MODES.join(", ")}.`);
  const targetCell = cell("target_url") ?? "";
  if (targetCell === "") throw new Error("target_url: required.");
  const { target, match } = targetFor(
    targetCell,
    (matchCell || undefined) as ParsedRow["match"] | undefined,
    "target_url",
  );

  const fields: RowFields = {};
  const anchor = cell("expected_anchor");
  if (anchor !== undefined) {
    if (anchor.length > MAX_ANCHOR_LENGTH) throw new Error(`expected_anchor: at most ${MAX_ANCHOR_LENGTH} characters.`);
    fields.expectedAnchor = anchor === "" ? null : anchor;
  }
  const rel = cell("expected_rel");
  if (rel !== undefined) {
    const lower = rel.toLowerCase();
    if (lower !== "" && !(EXPECTED_RELS as readonly string[]).includes(lower))
      throw new Error(`expected_rel: must be one of ${EXPECTED_RELS.join(", ")} or empty.`);
    fields.expectedRel = lower === "" ? null : (lower as TrackedLinkRow["expectedRel"]);
  }
  const expires = cell("expires_on");
  if (expires !== undefined) {
    if (expires !== "" && !isCalendarDate(expires)) throw new Error("expires_on: must be a date as YYYY-MM-DD.");
    fields.expiresOn = expires === "" ? null : expires;
  }
  const cost = cell("cost");
  if (cost !== undefined) {
    const value = cost === "" ? null : Number(cost);
    if (value !== null && (!/^\d+(\.\d+)?$/.test(cost) || !Number.isFinite(value) || value > 1e12))
      throw new Error("cost: must be a number, 0 or more (e.g. 120 or 49.90), or empty.");
    fields.cost = value;
  }
  const notes = cell("notes");
  if (notes !== undefined) {
    if (notes.length > MAX_NOTES_LENGTH) throw new Error(`notes: at most ${MAX_NOTES_LENGTH} characters.`);
    fields.notes = notes === "" ? null : notes;
  }
  const tags = splitTags(cell("tags") ?? "");
  if (tags.length > MAX_TAGS) throw new Error(`tags: at most ${MAX_TAGS} per row.`);
  const longTag = tags.find((tag) => tag.length > MAX_TAG_LENGTH);
  if (longTag) throw new Error(`tags: "${longTag.slice(0, 20)}…" is longer than ${MAX_TAG_LENGTH} characters.`);
  return { row, pageUrl, target, match, matchGiven: Boolean(matchCell), tags, fields };
}

function changedFields(link: TrackedLinkRow, parsed: ParsedRow): Partial<typeof trackedLink.$inferInsert> {
  const changes: Partial<typeof trackedLink.$inferInsert> = {};
  if (parsed.matchGiven && parsed.match !== link.match) changes.match = parsed.match;
  const current: RowFields = {
    expectedAnchor: link.expectedAnchor,
    expectedRel: link.expectedRel ?? null,
    expiresOn: link.expiresOn,
    cost: link.cost,
    notes: link.notes,
  };
  for (const key of Object.keys(parsed.fields) as Array<keyof RowFields>) {
    if (parsed.fields[key] !== current[key]) (changes as Record<string, unknown>)[key] = parsed.fields[key];
  }
  return changes;
}

const CHUNK = 500;
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export async function importLinks(
  ctx: AccountContext,
  text: string,
  options: { dryRun: boolean },
): Promise<ImportResult> {
  const { columns, width, records } = readTable(text);
  const result: ImportResult = { created: 0, updated: 0, unchanged: 0, errors: [] };
  const parsed: ParsedRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of records) {
    try {
      const item = parseRow(row, cells, columns, width, ctx.settings.ALLOW_PRIVATE_HOSTS);
      const key = `${item.pageUrl}\n${item.target}`;
      const earlier = firstRowOf.get(key);
      if (earlier !== undefined) throw new Error(`the same page_url and target_url as row ${earlier}.`);
      firstRowOf.set(key, row);
      parsed.push(item);
    } catch (error) {
      const message = error instanceof Error ? error.message : "invalid row.";
      result.errors.push({ row, message });
    }
  }
  const now = ctx.now();
  const organizationId = ctx.organization.id;

  const work = async (tx: Pick<Db, "select" | "insert" | "update">) => {
    const urls = [...new Set(parsed.map((item) => item.pageUrl))];
    const monitors = new Map<string, MonitorRow>();
    for (const part of chunks(urls)) {
      for (const row of await tx
        .select()
        .from(monitor)
        .where(owned(monitor, organizationId, inArray(monitor.url, part))))
        monitors.set(row.url, row);
    }
    const links = new Map<string, TrackedLinkRow>();
    const monitorIds = [...monitors.values()].map((row) => row.id);
    for (const part of chunks(monitorIds)) {
      for (const row of await tx
        .select()
        .from(trackedLink)
        .where(owned(trackedLink, organizationId, inArray(trackedLink.monitorId, part))))
        links.set(`${row.monitorId}\n${row.target}`, row);
    }

    const newMonitors = new Map<string, typeof monitor.$inferInsert & { id: string; tags: string[] }>();
    const tagChanges = new Map<string, string[]>();
    const newLinks: Array<typeof trackedLink.$inferInsert> = [];
    const linkChanges: Array<{ link: TrackedLinkRow; changes: Partial<typeof trackedLink.$inferInsert> }> = [];
    const touched = new Set<string>();

    for (const item of parsed) {
      let monitorId: string;
      let addsTags = false;
      const existing = monitors.get(item.pageUrl);
      if (existing) {
        monitorId = existing.id;
        const tags = tagChanges.get(monitorId) ?? existing.tags;
        const merged = dedupeTags([...tags, ...item.tags]);
        if (merged.length !== tags.length) {
          if (merged.length > MAX_TAGS) {
            result.errors.push({ row: item.row, message: `tags: the page would have more than ${MAX_TAGS} tags.` });
            continue;
          }
          tagChanges.set(monitorId, merged);
          addsTags = true;
        }
      } else {
        let planned = newMonitors.get(item.pageUrl);
        if (!planned) {
          planned = {
            id: randomUUID(),
            organizationId,
            url: item.pageUrl,
            intervalMinutes: DEFAULT_INTERVAL,
            tags: [],
            nextCheckAt: now,
            createdById: ctx.user.id,
            createdAt: now,
            updatedAt: now,
          };
          newMonitors.set(item.pageUrl, planned);
        }
        const merged = dedupeTags([...planned.tags, ...item.tags]);
        if (merged.length > MAX_TAGS) {
          result.errors.push({ row: item.row, message: `tags: the page would have more than ${MAX_TAGS} tags.` });
          continue;
        }
        planned.tags = merged;
        monitorId = planned.id;
      }
      const link = links.get(`${monitorId}\n${item.target}`);
      if (!link) {
        newLinks.push({
          id: randomUUID(),
          organizationId,
          monitorId,
          target: item.target,
          match: item.match,
          expectedAnchor: item.fields.expectedAnchor ?? null,
          expectedRel: item.fields.expectedRel ?? null,
          expiresOn: item.fields.expiresOn ?? null,
          cost: item.fields.cost ?? null,
          notes: item.fields.notes ?? null,
          source: "import",
          state: "pending",
          createdAt: now,
          updatedAt: now,
        });
        touched.add(monitorId);
        result.created += 1;
        continue;
      }
      const changes = changedFields(link, item);
      if (Object.keys(changes).length > 0) {
        linkChanges.push({ link, changes });
        if (changes.match) touched.add(monitorId);
        result.updated += 1;
      } else if (addsTags) {
        result.updated += 1;
      } else {
        result.unchanged += 1;
      }
    }
    if (options.dryRun) return;

    for (const part of chunks([...newMonitors.values()])) await tx.insert(monitor).values(part);
    for (const [id, tags] of tagChanges)
      await tx
        .update(monitor)
        .set({ tags, updatedAt: now })
        .where(owned(monitor, organizationId, eq(monitor.id, id)));
    for (const part of chunks(newLinks)) await tx.insert(trackedLink).values(part);
    for (const { link, changes } of linkChanges) {
      const set: Partial<typeof trackedLink.$inferInsert> = { ...changes, updatedAt: now };
      if (changes.match) {
        // Another match mode is another link: back to pending, like an edit in the app. Locked and re-read,
        // so a check that stored its result meanwhile is what the history's reset moves on from.
        const [was] = await tx
          .select()
          .from(trackedLink)
          .where(owned(trackedLink, organizationId, eq(trackedLink.id, link.id)))
          .for("update");
        Object.assign(set, await resetToPending(tx, was ?? link, now));
      }
      await tx
        .update(trackedLink)
        .set(set)
        .where(owned(trackedLink, organizationId, eq(trackedLink.id, link.id)));
    }
    // Pages with new or re-targeted links are checked soon, not an interval later.
    const plannedIds = new Set([...newMonitors.values()].map((planned) => planned.id));
    const existingTouched = [...touched].filter((id) => !plannedIds.has(id));
    for (const part of chunks(existingTouched)) {
      await tx
        .update(monitor)
        .set({ nextCheckAt: sql`LEAST(${monitor.nextCheckAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(owned(monitor, organizationId), inArray(monitor.id, part)));
    }
    await recordActivity(tx, {
      organizationId,
      actor: ctx.user,
      action: "tracked_links.import",
      target: null,
      details: {
        rows: records.length,
        created: result.created,
        updated: result.updated,
        unchanged: result.unchanged,
        errors: result.errors.length,
        monitorsCreated: newMonitors.size,
      },
    });
  };

  try {
    if (options.dryRun) await work(ctx.db);
    else await ctx.db.transaction(work);
  } catch (error) {
    if (uniqueViolation(error) !== null)
      throw new ApiError("CONFLICT", "Another import or edit changed these pages meanwhile.", {
        hint: "Import the file again: rows already imported come back unchanged.",
      });
    throw error;
  }
  result.errors.sort((a, b) => a.row - b.row);
  return result;
}
