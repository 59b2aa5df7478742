import { and, asc, eq, gt } from "drizzle-orm";
import type { AnalyzedLink } from "../analyzer";
import type { Link } from "../api/schemas";
import type { AccountContext } from "../auth/guard";
import type { Db } from "../db/client";
import { audit, auditLink } from "../db/schema";
import { toStoredLink } from "../db/stored-link";

/**
 * A saved audit's links as rows of audit_link, one per captured link, keyed (auditId, position): the
 * public Link fields as the analyzer gave them (group rules applied), so what is read back is what the
 * analyzer answered. Lists, comparisons and exports read them in position order, in batches.
 */

type LinkRow = typeof auditLink.$inferSelect;
type Insert = Pick<Db, "insert">;

/** Rows per INSERT: 11 parameters a row stays far below PostgreSQL's 65,535 parameters a statement. */
const INSERT_BATCH = 1_000;

export async function insertLinks(tx: Insert, auditId: string, links: readonly AnalyzedLink[]): Promise<void> {
  for (let start = 0; start < links.length; start += INSERT_BATCH) {
    await tx.insert(auditLink).values(
      links.slice(start, start + INSERT_BATCH).map((link) => ({ auditId, ...toStoredLink(link) })),
    );
  }
}

/** A row as the public Link (public-api.md §2.6), fields in the schema's order. */
export const linkOf = (row: LinkRow): Link => toStoredLink(row);

/** Up to `limit` links after `afterPosition`, in position order (keyset on the primary key). */
export async function readLinkBatch(db: Pick<Db, "select">, auditId: string, afterPosition: number, limit: number): Promise<Link[]> {
  const rows = await db
    .select()
    .from(auditLink)
    .where(and(eq(auditLink.auditId, auditId), gt(auditLink.position, afterPosition)))
    .orderBy(asc(auditLink.position))
    .limit(limit);
  return rows.map(linkOf);
}

/** Every link of an audit, in position order. */
export async function readLinks(db: Pick<Db, "select">, auditId: string): Promise<Link[]> {
  const rows = await db.select().from(auditLink).where(eq(auditLink.auditId, auditId)).orderBy(asc(auditLink.position));
  return rows.map(linkOf);
}

/**
 * One link of a saved audit of the caller's organization by its position, or null (no such audit in
 * the organization, or no such position): what "track a link from a saved audit" starts from.
 */
export async function auditLinkAt(db: Pick<Db, "select">, ctx: AccountContext, auditId: string, position: number): Promise<Link | null> {
  const [row] = await db
    .select({ link: auditLink })
    .from(auditLink)
    .innerJoin(audit, eq(audit.id, auditLink.auditId))
    .where(and(eq(audit.organizationId, ctx.organization.id), eq(auditLink.auditId, auditId), eq(auditLink.position, position)))
    .limit(1);
  return row ? linkOf(row.link) : null;
}
