import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgSelect } from "drizzle-orm/pg-core";
import { hasNul } from "../http/nul";
import { ApiError } from "../errors";

/**
 * Keyset pagination for every account list (`?limit=` and `?cursor=`, answering `nextCursor`): rows are
 * ordered by (createdAt, id) and a cursor is the key of the previous page's last row, so a page never
 * repeats or skips a row when rows are added between two requests (OFFSET would).
 *
 * Times are compared at millisecond precision: a cursor carries an ISO time, and some columns are
 * written by PostgreSQL's now() with microseconds.
 */

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface KeysetColumns {
  createdAt: PgColumn;
  id: PgColumn;
}

export type Direction = "asc" | "desc";

const millis = (column: PgColumn): SQL => sql`date_trunc('milliseconds', ${column})`;

/** The WHERE part that starts a page after `cursor` (undefined for the first page). */
function afterCursor(columns: KeysetColumns, cursor: string | undefined, direction: Direction): SQL | undefined {
  if (!cursor) return undefined;
  const [time, id] = decodeCursor(cursor);
  const beyond = direction === "desc" ? lt : gt;
  return or(beyond(millis(columns.createdAt), time), and(eq(millis(columns.createdAt), time), beyond(columns.id, id)));
}

/** The ORDER BY that matches afterCursor. */
function keysetOrder(columns: KeysetColumns, direction: Direction): SQL[] {
  const by = direction === "desc" ? desc : asc;
  return [by(millis(columns.createdAt)), by(columns.id)];
}

/** One page of an account list, as every list route answers it. */
export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

type KeyRow = { createdAt: Date; id: string };

/**
 * One page of a list, the whole keyset recipe in one place: `query` is a dynamic select
 * (`db.select(…).from(table).$dynamic()`, joins included); this adds `where` (the organization's scope
 * and the list's filters) and the cursor to its WHERE, the key order, and `limit + 1`, then cuts the
 * page and maps each row through `view`. `keyOf` finds the key columns' values in a row whose select
 * nests them (e.g. `{ link: trackedLink }`).
 */
export async function keysetPage<Q extends PgSelect, Item>(
  query: Q,
  options: {
    keys: KeysetColumns;
    direction: Direction;
    where: SQL | undefined;
    page: PageRequest;
    keyOf?: (row: Awaited<Q>[number]) => KeyRow;
  },
  view: (row: Awaited<Q>[number]) => Item,
): Promise<Page<Item>> {
  const { keys, direction, page } = options;
  const rows: Awaited<Q> = await query
    .where(and(options.where, afterCursor(keys, page.cursor, direction)))
    .orderBy(...keysetOrder(keys, direction))
    .limit(page.limit + 1);
  const keyOf = options.keyOf ?? ((row: Awaited<Q>[number]) => row as KeyRow);
  const cut = toPage(
    rows.map((row: Awaited<Q>[number]) => ({ ...keyOf(row), row })),
    page.limit,
  );
  return { items: cut.rows.map(({ row }) => view(row)), nextCursor: cut.nextCursor };
}

/**
 * Cuts the `limit + 1` rows a query fetched into the page and its next cursor (null on the last page).
 * Query with `.limit(page.limit + 1)`: the extra row only tells whether another page exists.
 */
function toPage<Row extends { createdAt: Date; id: string }>(
  rows: Row[],
  limit: number,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = rows.length > limit ? page[page.length - 1] : undefined;
  return { rows: page, nextCursor: last ? encodeCursor(last.createdAt, last.id) : null };
}

function encodeCursor(time: Date, id: string): string {
  return Buffer.from(`${time.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): [Date, string] {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = new Date(iso ?? "");
  // A cursor is ours only if it names a time and an id; U+0000 is in no id (and PostgreSQL refuses it).
  if (!id || hasNul(id) || Number.isNaN(time.getTime())) {
    throw new ApiError("INVALID_REQUEST", "cursor: not a cursor this list gave out.", {
      hint: "Pass the nextCursor of the previous page, unchanged.",
    });
  }
  return [time, id];
}
