import type { Link } from "@/lib/api/schemas";
import type { LinkSignals, Region } from "@/lib/schemas/verdict";
import { isBrokenStatus, NO_RESPONSE, NOT_CHECKED, type HttpStatus } from "@/lib/link-status";

/**
 * Pure helpers over the API's Link: status classes, rel policy, filtering and sorting.
 * Kept free of React so the table, the chart, find-my-link and the exports agree on one meaning.
 */

export type LinkType = Link["linkType"];
/** A link as the result view shows it: the public Link, with its signals in a signed-in audit. */
export type ViewLink = Link & { signals?: LinkSignals };
export type StatusClass = "2xx" | "3xx" | "4xx" | "5xx" | "none" | "unchecked" | "other";
export type RelKind = "follow" | "nofollow" | "sponsored" | "ugc";

export const STATUS_CLASS_LABELS: Record<StatusClass, string> = {
  "2xx": "2xx",
  "3xx": "3xx",
  "4xx": "4xx",
  "5xx": "5xx",
  none: "No response",
  unchecked: "Not checked",
  other: "Other",
};

/** `httpStatus` as lib/link-status.ts defines it: NOT_CHECKED (null), NO_RESPONSE (0), or a status. */
export function statusClassOf(status: HttpStatus): StatusClass {
  if (status === NOT_CHECKED) return "unchecked";
  if (status === NO_RESPONSE) return "none";
  if (status >= 200 && status < 300) return "2xx";
  if (status >= 300 && status < 400) return "3xx";
  if (status >= 400 && status < 500) return "4xx";
  if (status >= 500 && status < 600) return "5xx";
  return "other";
}

/** Rel values of a crawlable link; ignored links have no rel policy (empty list). */
export function relKindsOf(link: Link): RelKind[] {
  if (link.linkType === "ignored") return [];
  const kinds: RelKind[] = [];
  if (link.isNofollow) kinds.push("nofollow");
  if (link.isSponsored) kinds.push("sponsored");
  if (link.isUgc) kinds.push("ugc");
  return kinds.length > 0 ? kinds : ["follow"];
}

export function isFollowed(link: Link): boolean {
  return link.linkType !== "ignored" && !link.isNofollow && !link.isSponsored && !link.isUgc;
}

export interface LinkFilters {
  type: "all" | LinkType;
  rel: "all" | RelKind;
  status: "all" | "broken" | StatusClass;
  text: string;
  /** Signed-in audits only (links with signals): cannot be seen / can be seen. */
  visibility: "all" | "hidden" | "visible";
  /** Signed-in audits only: only after JavaScript / in the HTML the server sent. */
  source: "all" | "script_only" | "in_html";
  /** Signed-in audits only: the nearest landmark, or none. */
  region: "all" | "none" | Region;
  /** URL audits with Google's view (google-view.md §4): absent from / present in Googlebot's render. */
  googleView: "all" | "not_in_google_view" | "in_google_view";
}

export const NO_FILTERS: LinkFilters = {
  type: "all",
  rel: "all",
  status: "all",
  text: "",
  visibility: "all",
  source: "all",
  region: "all",
  googleView: "all",
};

/** Whether a link passes the signal filters (a link without signals passes only "all"). */
function signalsPass(link: ViewLink, filters: LinkFilters): boolean {
  const signals = link.signals;
  if (filters.visibility !== "all" && signals?.hidden !== (filters.visibility === "hidden")) return false;
  if (filters.source !== "all" && signals?.inRawHtml !== (filters.source === "in_html")) return false;
  if (
    filters.region !== "all" &&
    (signals === undefined || signals.region !== (filters.region === "none" ? null : filters.region))
  )
    return false;
  if (filters.googleView !== "all" && signals?.inGoogleView !== (filters.googleView === "in_google_view")) return false;
  return true;
}

export function filterLinks<T extends ViewLink>(links: readonly T[], filters: LinkFilters): T[] {
  const needle = filters.text.trim().toLowerCase();
  return links.filter((link) => {
    if (!signalsPass(link, filters)) return false;
    if (filters.type !== "all" && link.linkType !== filters.type) return false;
    if (filters.rel !== "all" && !relKindsOf(link).includes(filters.rel)) return false;
    if (filters.status === "broken" && !isBrokenStatus(link.httpStatus)) return false;
    if (filters.status !== "all" && filters.status !== "broken" && statusClassOf(link.httpStatus) !== filters.status)
      return false;
    if (needle && !link.href.toLowerCase().includes(needle) && !(link.anchorText ?? "").toLowerCase().includes(needle))
      return false;
    return true;
  });
}

export type SortKey = "position" | "anchorText" | "href" | "linkType" | "rel" | "httpStatus";
export interface SortState {
  key: SortKey;
  direction: "asc" | "desc";
}

const TYPE_ORDER: Record<LinkType, number> = { internal: 0, external: 1, ignored: 2 };
const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

function compareBy(key: SortKey, a: Link, b: Link): number {
  switch (key) {
    case "position":
      return (a.position ?? 0) - (b.position ?? 0);
    case "anchorText":
      // Links without anchor text sort last in either direction would surprise; keep them first ascending.
      return collator.compare(a.anchorText ?? "", b.anchorText ?? "");
    case "href":
      return collator.compare(a.href, b.href);
    case "linkType":
      return TYPE_ORDER[a.linkType] - TYPE_ORDER[b.linkType];
    case "rel":
      return collator.compare(relKindsOf(a).join(" "), relKindsOf(b).join(" "));
    case "httpStatus":
      // Unchecked (null) after every real status, "no response" (0) before 1xx.
      return (a.httpStatus ?? 10_000) - (b.httpStatus ?? 10_000);
  }
}

/** Sorted copy; ties keep document order so the table never shuffles between renders. */
export function sortLinks<T extends Link>(links: readonly T[], sort: SortState): T[] {
  const sign = sort.direction === "asc" ? 1 : -1;
  return [...links].sort((a, b) => sign * compareBy(sort.key, a, b) || (a.position ?? 0) - (b.position ?? 0));
}

export function countBy<K extends string>(links: readonly Link[], keyOf: (link: Link) => K | K[]): Map<K, number> {
  const counts = new Map<K, number>();
  for (const link of links) {
    const keys = keyOf(link);
    for (const key of Array.isArray(keys) ? keys : [keys]) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
