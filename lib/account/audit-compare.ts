import type { AuditComparison, LinkChange } from "../schemas/audits";
import type { Link } from "../api/schemas";
import type { AccountContext } from "../auth/guard";
import { readLinks } from "./audit-links";
import { findAudit } from "./audits";

/**
 * Comparing two saved audits of a page (docs/spec/account-api.md: links matched by href, then by order among
 * equal hrefs). `position` is deliberately not compared: a link that moved down the page because
 * something was inserted above it is the same placement, and every link below an insertion would
 * otherwise show as changed. `href` is the match key, so it cannot differ within a pair.
 */

/** The Link fields a change can name, in the order a reader scans them. */
export const COMPARED_FIELDS = [
  "linkType",
  "anchorText",
  "isNofollow",
  "isSponsored",
  "isUgc",
  "isImage",
  "httpStatus",
  "matchedGroupName",
] as const satisfies readonly (keyof Link)[];

/**
 * The links of `after` against those of `before`: the n-th occurrence of an href in one pairs with the
 * n-th occurrence in the other; a pair whose fields differ is a change, an occurrence left over on
 * one side is added (only in `after`) or removed (only in `before`). Added and changed links come in
 * `after`'s document order, removed ones in `before`'s.
 */
export function compareLinks(before: readonly Link[], after: readonly Link[]): AuditComparison {
  const earlier = new Map<string, Link[]>();
  for (const link of before) {
    const list = earlier.get(link.href);
    if (list) list.push(link);
    else earlier.set(link.href, [link]);
  }
  const paired = new Set<Link>();
  const seen = new Map<string, number>();
  const added: Link[] = [];
  const changed: LinkChange[] = [];
  for (const link of after) {
    const occurrence = seen.get(link.href) ?? 0;
    seen.set(link.href, occurrence + 1);
    const partner = earlier.get(link.href)?.[occurrence];
    if (!partner) {
      added.push(link);
      continue;
    }
    paired.add(partner);
    // isImage may be absent on a Link; absent and null say the same.
    const fields = COMPARED_FIELDS.filter((field) => (partner[field] ?? null) !== (link[field] ?? null));
    if (fields.length > 0) changed.push({ href: link.href, fields, before: partner, after: link });
  }
  const removed = before.filter((link) => !paired.has(link));
  return { added, removed, changed };
}

/** GET /api/account/audits/{id}/compare?with={otherId}: `id` is the later ("after") audit, `with` the earlier. */
export async function compareAudits(ctx: AccountContext, id: string, withId: string): Promise<AuditComparison> {
  const { db } = ctx;
  const [after, before] = await Promise.all([findAudit(ctx, id), findAudit(ctx, withId)]);
  const [afterLinks, beforeLinks] = await Promise.all([readLinks(db, after.id), readLinks(db, before.id)]);
  return compareLinks(beforeLinks, afterLinks);
}
