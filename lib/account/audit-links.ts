import { and, asc, eq, gt } from "drizzle-orm";
import type { AnalyzedLink } from "../analyzer";
import type { Link } from "../api/schemas";
import { UNKNOWN_SIGNALS, type LinkSignals, type SignedInLink } from "../schemas/verdict";
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

/** `signals[i]` belongs to `links[i]` (the analyzer's PageReport.linkSignals). */
export async function insertLinks(
  tx: Insert,
  auditId: string,
  links: readonly AnalyzedLink[],
  signals: readonly LinkSignals[],
): Promise<void> {
  for (let start = 0; start < links.length; start += INSERT_BATCH) {
    await tx.insert(auditLink).values(
      links.slice(start, start + INSERT_BATCH).map((link, index) => {
        const own = signals[start + index] ?? UNKNOWN_SIGNALS;
        return {
          auditId,
          ...toStoredLink(link),
          inRawHtml: own.inRawHtml,
          hidden: own.hidden,
          region: own.region,
          inGoogleView: own.inGoogleView,
        };
      }),
    );
  }
}

/** A row as the public Link (public-api.md §2.6), fields in the schema's order. */
export const linkOf = (row: LinkRow): Link => toStoredLink(row);

/** A row as a signed-in link: the public fields, then its signals (null in rows older than signals). */
export const signedInLinkOf = (row: LinkRow): SignedInLink => ({
  ...toStoredLink(row),
  signals: {
    inRawHtml: row.inRawHtml ?? null,
    hidden: row.hidden ?? null,
    region: row.region ?? null,
    inGoogleView: row.inGoogleView ?? null,
  },
});

/** Up to `limit` links after `afterPosition`, in position order (keyset on the primary key). */
export async function readLinkBatch(
  db: Pick<Db, "select">,
  auditId: string,
  afterPosition: number,
  limit: number,
): Promise<SignedInLink[]> {
  const rows = await db
    .select()
    .from(auditLink)
    .where(and(eq(auditLink.auditId, auditId), gt(auditLink.position, afterPosition)))
    .orderBy(asc(auditLink.position))
    .limit(limit);
  return rows.map(signedInLinkOf);
}

/** Every link of an audit, in position order, as the public Link (comparisons) or with its signals (the Audit). */
export async function readLinks(db: Pick<Db, "select">, auditId: string): Promise<Link[]> {
  const rows = await db.select().from(auditLink).where(eq(auditLink.auditId, auditId)).orderBy(asc(auditLink.position));
  return rows.map(linkOf);
}

export async function readSignedInLinks(db: Pick<Db, "select">, auditId: string): Promise<SignedInLink[]> {
  const rows = await db.select().from(auditLink).where(eq(auditLink.auditId, auditId)).orderBy(asc(auditLink.position));
  return rows.map(signedInLinkOf);
}

/**
 * One link of a saved audit of the caller's organization by its position, or null (no such audit in
 * the organization, or no such position): what "track a link from a saved audit" starts from.
 */
export async function auditLinkAt(
  db: Pick<Db, "select">,
  ctx: AccountContext,
  auditId: string,
  position: number,
): Promise<Link | null> {
  const [row] = await db
    .select({ link: auditLink })
    .from(auditLink)
    .innerJoin(audit, eq(audit.id, auditLink.auditId))
    .where(
      and(
        eq(audit.organizationId, ctx.organization.id),
        eq(auditLink.auditId, auditId),
        eq(auditLink.position, position),
      ),
    )
    .limit(1);
  return row ? linkOf(row.link) : null;
}
