/** The monitoring API's shapes as the pages read them (docs/account-api.md "Monitored pages and tracked links"). */

export type LinkState = "pending" | "live" | "missing" | "broken" | "rel_mismatch" | "anchor_mismatch";

export interface LinkSeen {
  href: string;
  position: number;
  linkType: string;
  anchorText: string | null;
  isNofollow: boolean;
  isSponsored: boolean;
  isUgc: boolean;
  isImage: boolean;
  httpStatus: number | null;
  matchedGroupName: string | null;
}

export interface TrackedLink {
  id: string;
  monitorId: string;
  target: string;
  match: "exact" | "prefix" | "domain";
  expectedAnchor: string | null;
  expectedRel: "follow" | "nofollow" | "sponsored" | "ugc" | null;
  state: LinkState;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  current: LinkSeen | null;
  notes: string | null;
  cost: number | null;
  expiresOn: string | null;
  source: "manual" | "import" | "audit";
  createdAt: string;
}

export interface Monitor {
  id: string;
  url: string;
  intervalMinutes: number;
  paused: boolean;
  tags: string[];
  status: "pending" | "ok" | "page_error";
  lastCheckedAt: string | null;
  nextCheckAt: string;
  consecutivePageErrors: number;
  page: { httpStatus: number | null; noindex: boolean | null; canonicalUrl: string | null } | null;
  createdAt: string;
  links: TrackedLink[];
}

export interface Check {
  id: string;
  startedAt: string;
  finishedAt: string;
  outcome: "ok" | "page_error";
  pageStatus: number | null;
  errorCode: string | null;
  linksFound: number | null;
}

export interface Transition {
  id: string;
  trackedLinkId: string;
  checkId: string | null;
  fromState: LinkState;
  toState: LinkState;
  createdAt: string;
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  errors: Array<{ row: number; message: string }>;
}

export const INTERVALS: Array<{ minutes: number; label: string }> = [
  { minutes: 60, label: "Every hour" },
  { minutes: 360, label: "Every 6 hours" },
  { minutes: 720, label: "Every 12 hours" },
  { minutes: 1440, label: "Daily" },
  { minutes: 10080, label: "Weekly" },
];

export const STATES: LinkState[] = ["pending", "live", "missing", "broken", "rel_mismatch", "anchor_mismatch"];

export function intervalLabel(minutes: number): string {
  return INTERVALS.find((item) => item.minutes === minutes)?.label ?? `${minutes} min`;
}

/** A time as the reader's locale shows it, or a dash. */
export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** The rel of a seen link as one word (sponsored and ugc outrank nofollow). */
export function relOfSeen(link: LinkSeen): string {
  if (link.isSponsored) return "sponsored";
  if (link.isUgc) return "ugc";
  if (link.isNofollow) return "nofollow";
  return "follow";
}
