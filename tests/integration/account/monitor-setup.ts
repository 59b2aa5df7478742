import { expect } from "vitest";
import { ORIGIN } from "./harness";

/** Helpers of the monitoring suites: the exact shapes of docs/spec/account-api.md and a CSV request. */

export const MONITOR_KEYS = [
  "consecutivePageErrors",
  "createdAt",
  "googleView",
  "googleViewComparison",
  "id",
  "intervalMinutes",
  "lastCheckedAt",
  "links",
  "nextCheckAt",
  "page",
  "paused",
  "status",
  "tags",
  "url",
];
export const LINK_KEYS = [
  "cost",
  "createdAt",
  "current",
  "expectedAnchor",
  "expectedRel",
  "expiresOn",
  "firstSeenAt",
  "id",
  "lastSeenAt",
  "match",
  "matchCount",
  "monitorId",
  "notes",
  "source",
  "state",
  "target",
  "verdict",
];
export const PAGE_KEYS = [
  "canonicalElsewhere",
  "canonicalUrl",
  "crawlers",
  "finalUrl",
  "googleView",
  "httpStatus",
  "noindex",
  "noindexSource",
  "robotsTxt",
];
export const PUBLIC_LINK_KEYS = [
  "anchorText",
  "href",
  "httpStatus",
  "isImage",
  "isNofollow",
  "isSponsored",
  "isUgc",
  "linkType",
  "matchedGroupName",
  "position",
];
export const CHECK_KEYS = ["errorCode", "finishedAt", "id", "linksFound", "outcome", "pageStatus", "startedAt"];
export const HISTORY_KEYS = ["after", "before", "checkId", "createdAt", "fromState", "id", "toState", "trackedLinkId"];

export interface TrackedLinkJson {
  id: string;
  monitorId: string;
  target: string;
  match: string;
  expectedAnchor: string | null;
  expectedRel: string | null;
  state: string;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  current: Record<string, unknown> | null;
  verdict: { value: string; reasons: string[] } | null;
  matchCount: number | null;
  notes: string | null;
  cost: number | null;
  expiresOn: string | null;
  source: string;
  createdAt: string;
}

export interface MonitorJson {
  id: string;
  url: string;
  intervalMinutes: number;
  paused: boolean;
  tags: string[];
  status: string;
  lastCheckedAt: string | null;
  nextCheckAt: string;
  consecutivePageErrors: number;
  page: {
    httpStatus: number | null;
    finalUrl: string | null;
    noindex: boolean | null;
    noindexSource: string | null;
    canonicalUrl: string | null;
    canonicalElsewhere: boolean | null;
    robotsTxt: string | null;
    crawlers: Record<string, string> | null;
  } | null;
  createdAt: string;
  links: TrackedLinkJson[];
}

export function expectMonitorShape(value: unknown): asserts value is MonitorJson {
  const monitor = value as MonitorJson;
  expect(Object.keys(monitor).sort()).toEqual(MONITOR_KEYS);
  for (const link of monitor.links) expectLinkShape(link);
  if (monitor.page) expect(Object.keys(monitor.page).sort()).toEqual(PAGE_KEYS);
}

export function expectLinkShape(value: unknown): asserts value is TrackedLinkJson {
  const link = value as TrackedLinkJson;
  expect(Object.keys(link).sort()).toEqual(LINK_KEYS);
  if (link.current) {
    const { signals, ...fields } = link.current as Record<string, unknown>;
    expect(Object.keys(fields).sort()).toEqual(PUBLIC_LINK_KEYS);
    expect(Object.keys(signals as object).sort()).toEqual(["hidden", "inGoogleView", "inRawHtml", "region"]);
  }
}

/** A CSV upload as the app's import form sends it. */
export function csvRequest(
  pathname: string,
  cookie: string,
  csv: string | Uint8Array,
  contentType = "text/csv",
): Request {
  return new Request(`${ORIGIN}${pathname}`, {
    method: "POST",
    headers: {
      host: "localhost:3000",
      cookie,
      origin: ORIGIN,
      "content-type": contentType,
      "x-linklens-client-key": "127.0.0.1",
    },
    body: typeof csv === "string" ? csv : Buffer.from(csv),
  });
}

/** An HTML page for the fixture site. */
export function htmlPage(body: string, head = "", title = "Placement"): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}
