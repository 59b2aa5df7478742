import type { AnalyzedLink } from "../analyzer";
import { UNKNOWN_SIGNALS, type SignedInLink } from "../schemas/verdict";

/**
 * The public Link (public-api.md §2.6) as the database keeps it: saved audits as rows of audit_link,
 * monitors as JSON (a tracked link's `current`, history, alert events). One mapping for all of them, so
 * what is read back is what the analyzer answered, fields in the schema's order.
 */

/** PostgreSQL text and jsonb cannot hold U+0000 (a script can put one in a rendered link's text); U+FFFD stands in. */
export function storableText<T extends string | null>(value: T): T {
  return (value === null || !value.includes("\u0000") ? value : value.replaceAll("\u0000", "\uFFFD")) as T;
}

/** Exactly the public Link fields of `link` (extra properties of a row or an older stored shape are left out), storable. */
export function toStoredLink(link: AnalyzedLink): AnalyzedLink {
  return {
    href: storableText(link.href),
    position: link.position,
    linkType: link.linkType,
    anchorText: storableText(link.anchorText),
    isNofollow: link.isNofollow,
    isSponsored: link.isSponsored,
    isUgc: link.isUgc,
    isImage: link.isImage,
    httpStatus: link.httpStatus,
    matchedGroupName: link.matchedGroupName,
  };
}

/**
 * A stored link with the signals kept beside it (a tracked link's `current`, evidence) as the API shows it:
 * unknown signals for rows stored before signals, and an unknown Google view for rows stored before it.
 */
export function signedInLinkView(
  link: (AnalyzedLink & { signals?: Partial<SignedInLink["signals"]> }) | null,
): SignedInLink | null {
  return link ? { ...toStoredLink(link), signals: { ...UNKNOWN_SIGNALS, ...link.signals } } : null;
}
