import { ApiError } from "../errors";
import type { AnalyzedLink, PageReport } from "../analyzer";
import { isBrokenStatus } from "../link-status";
import {
  reasonsInWords,
  UNKNOWN_SIGNALS,
  VERDICT_LABELS,
  type LinkSignals,
  type PageSignals,
  type Verdict,
} from "../schemas/verdict";
import {
  bestMatch,
  googleFacts,
  pageSignals,
  redirectedAway,
  verdictOf,
  withGoogleView,
  type GoogleReading,
  type PageFacts,
} from "../verdict";
import type { MatchMode } from "./schemas";

/**
 * Placement verification: which links of an analysed page point at a target, are they followed, and does
 * the best of them count (placement-verdict.md)? Pure: it reads the analyzer's report and knows nothing
 * of MCP or HTTP. The answer is not the public Link shape: each match carries its `signals`, and the
 * best match its verdict with reasons (computed as for a tracked link that is present).
 */

export interface LinkTarget {
  /** The target as parsed, WHATWG-serialized. */
  url: URL;
  match: MatchMode;
}

export interface FoundLink extends AnalyzedLink {
  /** Internal or external with none of nofollow, sponsored, ugc: the link passes ranking signals. */
  followed: boolean;
  /** inRawHtml, hidden (URL mode; null with html), region, and inGoogleView (url only; google-view.md §2). */
  signals: LinkSignals;
}

/** The verdict of the best match: does it pass value, and every reason it may not. */
export interface BestMatchVerdict extends Verdict {
  /** The best match's position (the first that counts, else the first at risk, else the first). */
  position: number;
}

export interface FindLinkResult {
  success: true;
  found: boolean;
  target: string;
  match: MatchMode;
  /** The analysed page (final URL after redirects in URL mode). */
  url: string;
  domain: string;
  linksOnPage: number;
  matches: FoundLink[];
  /** The best match's verdict (null when nothing matched). */
  verdict: BestMatchVerdict | null;
  /** What the page says about itself: noindex, canonical, robots.txt (URL mode), final URL. */
  page: PageSignals;
  /** When nothing matched exactly or by prefix: up to 10 links to the target's host, to show near misses. */
  sameHostLinks?: FoundLink[];
  summary: string;
}

const NEAR_MISSES = 10;

/**
 * Reads `target` as a URL (https:// assumed when no scheme is given) and picks the default match mode:
 * exact when it names a page (a path or a query), else domain.
 * @throws ApiError INVALID_REQUEST when target is not an http(s) URL or hostname.
 */
export function parseTarget(target: string, match: MatchMode | undefined): LinkTarget {
  const hint = "Give target as https://mysite.com/page or as a bare domain such as mysite.com.";
  const trimmed = target.trim();
  // "mysite.com:8080/x" has no scheme; "mailto:me@x" and "ftp://x" do, and are refused below.
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed.replace(/^\/\//, "")}`);
  } catch {
    throw new ApiError("INVALID_REQUEST", "target: not a URL or hostname.", { hint });
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.hostname === "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new ApiError(
      "INVALID_REQUEST",
      "target: only http(s) URLs and hostnames, without credentials, can be looked for.",
      { hint },
    );
  }
  const namesAPage = url.pathname !== "/" || url.search !== "";
  return { url, match: match ?? (namesAPage ? "exact" : "domain") };
}

/**
 * The links of `report` that point at `target`, with the best match's verdict and a one-line summary.
 * `requestedUrl` (URL mode) is the page asked for: ending elsewhere is `page_redirected`.
 */
export function findLink(
  report: PageReport,
  target: LinkTarget,
  requestedUrl: string | null = null,
  google: GoogleReading | null = null,
): FindLinkResult {
  const result = report.analysis;
  const signals = withGoogleView(result.links, report.linkSignals, google);
  const withFollowed = (link: AnalyzedLink, index: number): FoundLink => ({
    ...link,
    followed: link.linkType !== "ignored" && !link.isNofollow && !link.isSponsored && !link.isUgc,
    signals: signals[index] ?? UNKNOWN_SIGNALS,
  });
  const all = result.links.map(withFollowed);
  const matches = all.filter((link) => matchesTarget(link.href, target));
  const page = pageSignals(report.page, google?.view ?? null);
  const googleSays = googleFacts(google, (href) => matchesTarget(href, target));
  const facts: PageFacts = {
    noindex: page.noindex === true,
    robotsTxt: page.robotsTxt,
    canonicalElsewhere: page.canonicalElsewhere === true,
    redirected: requestedUrl !== null && redirectedAway(requestedUrl, page.finalUrl),
  };
  const best = bestMatch(
    matches.map((link) => ({
      link,
      verdict: verdictOf({
        link,
        broken: isBrokenStatus(link.httpStatus),
        removedByScript: false,
        page: facts,
        google: googleSays,
      }),
      meetsExpectations: true,
    })),
  );
  const verdict = best ? { position: best.link.position, ...best.verdict } : null;
  const base = {
    success: true as const,
    found: matches.length > 0,
    target: target.url.href,
    match: target.match,
    url: result.url,
    domain: result.domain,
    linksOnPage: result.stats.total,
    matches,
    verdict,
    page,
  };
  if (matches.length > 0) return { ...base, summary: summarize(matches, target, verdict) };

  const sameHost =
    target.match === "domain"
      ? []
      : all.filter((link) => matchesTarget(link.href, { url: target.url, match: "domain" }));
  const nearMiss =
    sameHost.length > 0
      ? ` ${sameHost.length} link(s) do point to ${hostKey(target.url)}; see sameHostLinks (or retry with match "domain").`
      : "";
  // Cloaking (google-view.md §2): visitors never see it, Googlebot's render has it.
  const cloaked = googleSays?.hasMatch
    ? " Googlebot's render of the page has it: the page shows it only to Googlebot (cloaking, which Google treats as spam)."
    : "";
  return {
    ...base,
    sameHostLinks: sameHost.slice(0, NEAR_MISSES),
    summary: `Not found: none of the ${result.stats.total} links on ${result.url} matches ${target.url.href} (${target.match} match).${nearMiss}${cloaked}`,
  };
}

function summarize(matches: FoundLink[], target: LinkTarget, verdict: BestMatchVerdict | null): string {
  const followed = matches.filter((link) => link.followed).length;
  const first = matches[0];
  const flags = (link: FoundLink) =>
    link.followed
      ? "followed"
      : [link.isNofollow && "nofollow", link.isSponsored && "sponsored", link.isUgc && "ugc"]
          .filter(Boolean)
          .join(", ");
  const detail = first
    ? ` First at position ${first.position}: ${first.href}, ${flags(first)}, anchor ${first.anchorText === null ? "none" : JSON.stringify(first.anchorText)}, HTTP status ${first.httpStatus ?? "not checked"}.`
    : "";
  const counts = verdict
    ? ` Verdict (best match, position ${verdict.position}): ${VERDICT_LABELS[verdict.value]}${verdict.reasons.length > 0 ? ` — ${reasonsInWords(verdict.reasons)}` : ""}.`
    : "";
  return `Found ${matches.length} link(s) matching ${target.url.href} (${target.match} match): ${followed} followed, ${matches.length - followed} not followed.${detail}${counts}`;
}

/** Host without a leading `www.`: www.example.com and example.com are one placement target. */
function hostKey(url: URL): string {
  return url.hostname.replace(/^www\./, "");
}

/** Host, port, path and query, without scheme, `www.` or fragment: what "the same link" means for a placement. */
function pageKey(url: URL, trimSlash: boolean): string {
  const path = trimSlash ? url.pathname.replace(/\/+$/, "") : url.pathname;
  return `${hostKey(url)}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
}

function matchesTarget(href: string, target: LinkTarget): boolean {
  let link: URL;
  try {
    link = new URL(href);
  } catch {
    return false;
  }
  if (link.protocol !== "http:" && link.protocol !== "https:") return false;
  switch (target.match) {
    case "exact":
      return pageKey(link, true) === pageKey(target.url, true);
    case "prefix":
      return pageKey(link, false).startsWith(pageKey(target.url, false));
    case "domain": {
      const host = hostKey(link);
      const wanted = hostKey(target.url);
      return host === wanted || host.endsWith(`.${wanted}`) || link.hostname === target.url.hostname;
    }
  }
}
