import {
  REASON_WORDS,
  VERDICT_LABELS,
  VERDICT_REASONS,
  VERDICT_VALUES,
  type VerdictReason,
  type VerdictValue,
} from "../schemas/verdict";
import { agentList, crawlerNoun, knownAgents } from "../schemas/crawlers";
import type { AlertType } from "./types";

/**
 * Words for an alert event, shared by emails and the app: a headline that names what changed ("Link
 * removed: yoursite.com on example.org/post") and the before → after facts. Pure; values come back as
 * plain strings for the caller to escape.
 */

export interface DescribedEvent {
  type: AlertType;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface EventPlace {
  /** The monitored page's URL. */
  pageUrl: string;
  /** The tracked link's target (null for page events). */
  target: string | null;
}

export interface Change {
  label: string;
  before: string;
  after: string;
}

export interface Description {
  headline: string;
  summary: string;
  changes: Change[];
}

/** `https://www.example.org/post/?a=1` → `example.org/post`: how people say a page in a subject line. */
export function shortUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return url.slice(0, 80);
  const host = parsed.hostname.replace(/^www\./, "");
  const path = parsed.pathname.replace(/\/+$/, "");
  const short = `${host}${path}`;
  return short.length > 80 ? `${short.slice(0, 77)}…` : short;
}

type LinkLike = {
  href?: unknown;
  anchorText?: unknown;
  isNofollow?: unknown;
  isSponsored?: unknown;
  isUgc?: unknown;
  httpStatus?: unknown;
} | null;

function linkOf(side: Record<string, unknown> | null): LinkLike {
  const link = side?.link;
  return typeof link === "object" && link !== null ? (link as LinkLike) : null;
}

function relText(link: LinkLike): string {
  if (!link) return "—";
  if (link.isSponsored === true) return "sponsored";
  if (link.isUgc === true) return "ugc";
  if (link.isNofollow === true) return "nofollow";
  return "follow";
}

function statusText(link: LinkLike): string {
  const status = link?.httpStatus;
  if (status === null || status === undefined) return "not checked";
  if (status === 0) return "no response";
  return `HTTP ${String(status)}`;
}

function anchorText(link: LinkLike): string {
  return typeof link?.anchorText === "string" ? `“${link.anchorText}”` : "(no text)";
}

function stateText(side: Record<string, unknown> | null): string {
  return typeof side?.state === "string" ? side.state.replace("_", " ") : "—";
}

/** A verdict_changed side ({ value, reasons }) read defensively: stored JSON is not trusted to be well formed. */
function verdictSide(side: Record<string, unknown> | null): { value: VerdictValue | null; reasons: VerdictReason[] } {
  const value = (VERDICT_VALUES as readonly unknown[]).includes(side?.value) ? (side?.value as VerdictValue) : null;
  const reasons = Array.isArray(side?.reasons)
    ? VERDICT_REASONS.filter((reason) => (side.reasons as unknown[]).includes(reason))
    : [];
  return { value, reasons };
}

/** The words of a verdict change: what is new ("Page now blocked by robots.txt") and what went away. */
function verdictChange(event: DescribedEvent, page: string, target: string, place: EventPlace): Description {
  const before = verdictSide(event.before);
  const after = verdictSide(event.after);
  const added = after.reasons.filter((reason) => !before.reasons.includes(reason));
  const removed = before.reasons.filter((reason) => !after.reasons.includes(reason));
  const label = (value: VerdictValue | null) => (value ? VERDICT_LABELS[value] : "—");
  // The headline is the news: what now stands in the link's way, in words ("Page now blocked by robots.txt").
  const first = added[0];
  const headline =
    after.value === "counts"
      ? `Link counts again: ${target} on ${page}`
      : first
        ? `${NEWS[first]}: ${target} on ${page}`
        : `Link now ${label(after.value).toLowerCase()}: ${target} on ${page}`;
  const now =
    after.reasons.length > 0
      ? ` Now: ${after.reasons.map((reason) => REASON_WORDS[reason]).join("; ")}.`
      : " Nothing stands in its way any more.";
  return {
    headline,
    summary: `The link to ${place.target ?? target} on ${place.pageUrl} went from “${label(before.value)}” to “${label(after.value)}”.${now}`,
    changes: [
      { label: "Verdict", before: label(before.value), after: label(after.value) },
      ...added.map((reason) => ({ label: "New", before: "", after: NEWS[reason] })),
      ...removed.map((reason) => ({ label: "Resolved", before: REASON_WORDS[reason], after: "no longer the case" })),
    ],
  };
}

/**
 * The words of a change of crawler access: who is newly blocked ("AI crawlers now blocked: GPTBot and
 * CCBot on example.org/post"), else who may crawl again ("AI crawlers allowed again: GPTBot on …"), and
 * the whole set before → after. Agents are read from the stored lists defensively, in the agents' order.
 */
function crawlerAccessChange(event: DescribedEvent, page: string, place: EventPlace): Description {
  const before = knownAgents(event.before?.disallowed);
  const after = knownAgents(event.after?.disallowed);
  const blocked = after.filter((agent) => !before.includes(agent));
  const allowed = before.filter((agent) => !after.includes(agent));
  const headline =
    blocked.length > 0
      ? `${crawlerNoun(blocked)} now blocked: ${agentList(blocked)} on ${page}`
      : allowed.length > 0
        ? `${crawlerNoun(allowed)} allowed again: ${agentList(allowed)} on ${page}`
        : `Crawler access changed on ${page}`;
  const news = [
    ...(blocked.length > 0 ? [`now blocks ${agentList(blocked)}`] : []),
    ...(allowed.length > 0 ? [`no longer blocks ${agentList(allowed)}`] : []),
  ];
  const named = (agents: readonly string[]) => (agents.length > 0 ? agents.join(", ") : "none");
  return {
    headline,
    summary: `The robots.txt of ${place.pageUrl} ${news.length > 0 ? news.join(" and ") : "changed"}. ${googleNote(blocked, allowed)}`,
    changes: [
      { label: "Blocked crawlers", before: named(before), after: named(after) },
      ...blocked.map((agent) => ({ label: agent, before: "allowed", after: "blocked" })),
      ...allowed.map((agent) => ({ label: agent, before: "blocked", after: "allowed" })),
    ],
  };
}

/** What a change of crawler access means for the links' verdicts, which look at Googlebot only. */
function googleNote(blocked: readonly string[], allowed: readonly string[]): string {
  if (blocked.includes("Googlebot")) return "Googlebot is among them: links on this page no longer count for Google.";
  if (allowed.includes("Googlebot")) return "Googlebot may crawl it again.";
  return "Links on it count for Google as before: a link's verdict looks at Googlebot only.";
}

/** A reason as news, in the words of an email ("Page now blocked by robots.txt"). */
const NEWS: Record<VerdictReason, string> = {
  missing: "Link no longer on the page",
  removed_by_script: "Link removed by JavaScript after the page loaded",
  broken_target: "Link target now broken",
  nofollow: "Link now nofollow",
  sponsored: "Link now marked sponsored",
  ugc: "Link now marked ugc",
  hidden: "Link hidden by CSS",
  page_noindex: "Page now set to noindex",
  robots_disallowed: "Page now blocked by robots.txt",
  not_in_google_view: "Link no longer in Googlebot's view of the page",
  shown_only_to_googlebot: "Link now shown only to Googlebot (cloaking)",
  script_only: "Link only present after JavaScript",
  canonical_elsewhere: "Page's canonical now points to another URL",
  page_redirected: "Page now redirects to another URL",
  boilerplate_region: "Link moved to a header, navigation, sidebar or footer",
};

export function describeEvent(event: DescribedEvent, place: EventPlace): Description {
  const page = shortUrl(place.pageUrl);
  const target = place.target ? shortUrl(place.target) : "";
  const before = linkOf(event.before);
  const after = linkOf(event.after);
  const stateChange: Change = { label: "State", before: stateText(event.before), after: stateText(event.after) };
  switch (event.type) {
    case "link_missing":
      // Never seen since it was added (or re-targeted): not "removed", but a placement that is not there.
      if (event.before?.state === "pending" && !before) {
        return {
          headline: `Link not found: ${target} on ${page}`,
          summary: `The link to ${place.target ?? target} was not on ${place.pageUrl} in any check since it was added (confirmed by consecutive checks): it does not count.`,
          changes: [stateChange, { label: "Link", before: "never seen", after: "not on the page" }],
        };
      }
      return {
        headline: `Link removed: ${target} on ${page}`,
        summary: `The link to ${place.target ?? target} is no longer on ${place.pageUrl} (confirmed by consecutive checks).`,
        changes: [
          stateChange,
          {
            label: "Last seen as",
            before: before ? `${anchorText(before)}, ${relText(before)}` : "—",
            after: "not on the page",
          },
        ],
      };
    case "link_restored":
      return {
        headline: `Link back: ${target} on ${page}`,
        summary: `The link to ${place.target ?? target} is on ${place.pageUrl} again.`,
        changes: [
          stateChange,
          { label: "Link", before: "not on the page", after: `${anchorText(after)}, ${relText(after)}` },
        ],
      };
    case "link_broken":
      return {
        headline: `Link broken: ${target} on ${page}`,
        summary: `The link on ${place.pageUrl} points to a page that no longer works (confirmed by consecutive checks).`,
        changes: [stateChange, { label: "Target status", before: statusText(before), after: statusText(after) }],
      };
    case "link_fixed":
      return {
        headline: `Link fixed: ${target} on ${page}`,
        summary: `The target of the link on ${place.pageUrl} answers again.`,
        changes: [stateChange, { label: "Target status", before: statusText(before), after: statusText(after) }],
      };
    case "rel_changed":
      return {
        headline: `Link now ${relText(after)}: ${target} on ${page}`,
        summary: `The rel of the link to ${place.target ?? target} on ${place.pageUrl} changed.`,
        changes: [stateChange, { label: "Rel", before: relText(before), after: relText(after) }],
      };
    case "anchor_changed":
      return {
        headline: `Anchor text changed: ${target} on ${page}`,
        summary: `The text of the link to ${place.target ?? target} on ${place.pageUrl} changed.`,
        changes: [stateChange, { label: "Anchor text", before: anchorText(before), after: anchorText(after) }],
      };
    case "page_noindex":
      return {
        headline: `Page set to noindex: ${page}`,
        summary: `${place.pageUrl} now tells search engines not to index it (meta robots or X-Robots-Tag): links on it lose their value.`,
        changes: [{ label: "noindex", before: String(event.before?.noindex ?? "unknown"), after: "true" }],
      };
    case "page_unreachable": {
      const status = event.after?.pageStatus;
      return {
        headline: `Page unreachable: ${page}`,
        summary: `${place.pageUrl} did not load as a web page in ${String(event.after?.consecutivePageErrors ?? "several")} checks in a row. Tracked links keep their last state until it loads again.`,
        changes: [
          {
            label: "Last error",
            before: "loading",
            after: `${String(event.after?.errorCode ?? "error")}${typeof status === "number" ? ` (HTTP ${status})` : ""}`,
          },
        ],
      };
    }
    case "verdict_changed":
      return verdictChange(event, page, target, place);
    case "crawler_access_changed":
      return crawlerAccessChange(event, page, place);
    case "link_expiring": {
      const days = Number(event.after?.daysLeft ?? 0);
      const when = days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
      return {
        headline: `Placement expires ${when}: ${target} on ${page}`,
        summary: `The placement of your link on ${place.pageUrl} expires on ${String(event.after?.expiresOn ?? "")}.`,
        changes: [{ label: "Expires on", before: "", after: String(event.after?.expiresOn ?? "") }],
      };
    }
  }
}
