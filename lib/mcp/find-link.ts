import { ApiError } from "../errors";
import type { AnalysisResult, AnalyzedLink } from "../analyzer";
import type { MatchMode } from "./schemas";

/**
 * Placement verification: which links of an analysed page point at a target, and are they followed?
 * Pure: it reads an AnalysisResult and knows nothing of MCP or HTTP.
 */

export interface LinkTarget {
  /** The target as parsed, WHATWG-serialized. */
  url: URL;
  match: MatchMode;
}

export interface FoundLink extends AnalyzedLink {
  /** Internal or external with none of nofollow, sponsored, ugc: the link passes ranking signals. */
  followed: boolean;
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
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || url.username !== "" || url.password !== "") {
    throw new ApiError("INVALID_REQUEST", "target: only http(s) URLs and hostnames, without credentials, can be looked for.", { hint });
  }
  const namesAPage = url.pathname !== "/" || url.search !== "";
  return { url, match: match ?? (namesAPage ? "exact" : "domain") };
}

/** The links of `result` that point at `target`, with a one-line verdict. */
export function findLink(result: AnalysisResult, target: LinkTarget): FindLinkResult {
  const withFollowed = (link: AnalyzedLink): FoundLink => ({ ...link, followed: link.linkType !== "ignored" && !link.isNofollow && !link.isSponsored && !link.isUgc });
  const matches = result.links.filter((link) => matchesTarget(link.href, target)).map(withFollowed);
  const base = {
    success: true as const,
    found: matches.length > 0,
    target: target.url.href,
    match: target.match,
    url: result.url,
    domain: result.domain,
    linksOnPage: result.stats.total,
    matches,
  };
  if (matches.length > 0) return { ...base, summary: summarize(matches, target) };

  const sameHost = target.match === "domain" ? [] : result.links.filter((link) => matchesTarget(link.href, { url: target.url, match: "domain" })).map(withFollowed);
  const nearMiss = sameHost.length > 0 ? ` ${sameHost.length} link(s) do point to ${hostKey(target.url)}; see sameHostLinks (or retry with match "domain").` : "";
  return {
    ...base,
    sameHostLinks: sameHost.slice(0, NEAR_MISSES),
    summary: `Not found: none of the ${result.stats.total} links on ${result.url} matches ${target.url.href} (${target.match} match).${nearMiss}`,
  };
}

function summarize(matches: FoundLink[], target: LinkTarget): string {
  const followed = matches.filter((link) => link.followed).length;
  const first = matches[0];
  const flags = (link: FoundLink) =>
    link.followed ? "followed" : [link.isNofollow && "nofollow", link.isSponsored && "sponsored", link.isUgc && "ugc"].filter(Boolean).join(", ");
  const detail = first
    ? ` First at position ${first.position}: ${first.href}, ${flags(first)}, anchor ${first.anchorText === null ? "none" : JSON.stringify(first.anchorText)}, HTTP status ${first.httpStatus ?? "not checked"}.`
    : "";
  return `Found ${matches.length} link(s) matching ${target.url.href} (${target.match} match): ${followed} followed, ${matches.length - followed} not followed.${detail}`;
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
