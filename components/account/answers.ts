import type { ZodType } from "zod";
import { MAX_UPTIME_IDS, UptimeBatchSchema, type UptimeBatch } from "@/lib/schemas/stats";

/**
 * The account API paths the signed-in pages read, and the server's answers to them. A page's server
 * component reads its data through the services the routes use and hands each answer to the client hook
 * (use-api.ts) that reads the same path later: server and browser name the data by the same path.
 * No "use client": the server components call these too.
 */

/** The server's answer to GET `path`, checked by the schema the route answers with. */
export interface Answer<T> {
  path: string;
  data: T;
}

/** What a service returned for `path`, checked by the API's schema of it (a mismatch fails the page). */
export function answerOf<T>(path: string, schema: ZodType<T>, value: unknown): Answer<T> {
  return { path, data: schema.parse(value) };
}

/** The answer among `answers` that is `path`'s, if the server gave one. */
export function answerFor<T>(answers: readonly Answer<T>[], path: string | null): Answer<T> | undefined {
  return answers.find((answer) => answer.path === path);
}

const id = encodeURIComponent;

export const MONITORS_PATH = "/api/account/monitors?limit=50";
/** The names of the pages in the Links page's filter: one request for up to 100 pages. */
export const PAGE_NAMES_PATH = "/api/account/monitors?limit=100";
export const MEMBERS_PATH = "/api/account/members";
export const INVITATIONS_PATH = "/api/account/invitations";
export const OUTBOX_PATH = "/api/account/outbox";
export const BRANDING_PATH = "/api/account/branding";
/** Better Auth's list of the user's signed-in devices. */
export const SESSIONS_PATH = "/api/auth/list-sessions";

export const monitorPath = (monitorId: string) => `/api/account/monitors/${id(monitorId)}`;
export const checksPath = (monitorId: string) => `/api/account/monitors/${id(monitorId)}/checks?limit=50`;
export const linkPath = (linkId: string) => `/api/account/links/${id(linkId)}`;
/** A tracked link's evidence, a page of 10 at a time (a link changes rarely, so a few cover months). */
export const evidencePath = (linkId: string) => `/api/account/links/${id(linkId)}/evidence?limit=10`;
/** The other saved audits of a page, for "Compare with…". */
export const auditsOfPagePath = (url: string) => `/api/account/audits?limit=100&url=${id(url)}`;
export const comparePath = (after: string, before: string) =>
  `/api/account/audits/${id(after)}/compare?with=${id(before)}`;

/** The Links page's filters, as the query of GET /api/account/links (empty ones left out). */
export type LinkFilterValues = Record<"state" | "verdict" | "tag" | "monitorId" | "q", string>;

export function linkFilterQuery(filters: LinkFilterValues): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== "") params.set(key, value.trim());
  return params.toString();
}

/** The Links page's list: 100 links a page. */
export function linksPath(filters: LinkFilterValues): string {
  const query = linkFilterQuery(filters);
  return `/api/account/links?limit=100${query ? `&${query}` : ""}`;
}

/** The 90-day strips of up to 100 tracked links (GET /api/account/links/uptime?ids=…). */
export const uptimePath = (linkIds: readonly string[]) =>
  `/api/account/links/uptime?days=90&ids=${linkIds.map(id).join(",")}`;

/** Tracked links in the batches their strips are read in: 100 a request, in list order. */
export function uptimeBatches<T>(links: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < links.length; start += MAX_UPTIME_IDS)
    batches.push(links.slice(start, start + MAX_UPTIME_IDS));
  return batches;
}

/** The server's strips of `linkIds` (read in one query), checked, as the answers of their batches' requests. */
export function uptimeAnswers(linkIds: readonly string[], strips: unknown): Answer<UptimeBatch>[] {
  const all = UptimeBatchSchema.parse(strips);
  return uptimeBatches(linkIds).map((ids) => ({
    path: uptimePath(ids),
    data: { items: all.items.filter((item) => ids.includes(item.id)) },
  }));
}
