import { siteOf } from "../analyzer";
import { ApiError } from "../errors";
import { MAX_URL_LENGTH } from "../limits";

/**
 * How a tracked link finds itself among a page's links (docs/spec/account-api.md): `exact` compares URLs after
 * WHATWG serialization without the fragment, `prefix` is a string prefix of that, `domain` matches any
 * link to the target's site (registrable domain, public suffix list with its private section, so
 * `blog.example.com` is example.com's and `evil-example.com` is not). Only http(s) links can match.
 */

export type MatchMode = "exact" | "prefix" | "domain";

/** Who a link is tracked for, as stored: a serialized URL without fragment (exact, prefix) or a site (domain). */
export interface TrackedTarget {
  target: string;
  match: MatchMode;
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

function parseHttpUrl(raw: string): URL | null {
  const trimmed = raw.trim();
  // A bare host ("mysite.example/page") means https; anything with a scheme is taken as written.
  const url = URL.parse(trimmed.includes("://") ? trimmed : `https://${trimmed}`);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
  return url;
}

/**
 * The stored form of a target: the WHATWG serialization without the fragment (a bare host gains
 * `https://` and `/`). A domain target matches on the site of its host.
 * @throws ApiError INVALID_REQUEST naming `field` when the target is not an http(s) URL or host.
 */
export function normalizeTarget(raw: string, match: MatchMode, field = "target"): string {
  if (raw.length > MAX_URL_LENGTH)
    throw new ApiError("INVALID_REQUEST", `${field}: at most ${MAX_URL_LENGTH} characters.`);
  const url = parseHttpUrl(raw);
  if (!url || url.username || url.password) {
    throw new ApiError("INVALID_REQUEST", `${field}: not an http(s) URL or hostname.`, {
      hint: 'Give the URL your link points to, e.g. https://mysite.example/page, or a hostname with match "domain".',
    });
  }
  return withoutFragment(url);
}

/** The site a domain target stands for. */
function targetSite(target: string): string | null {
  const url = parseHttpUrl(target);
  return url ? siteOf(url.hostname) : null;
}

/** Whether one captured link is the tracked target. */
export function matchesTarget(href: string, tracked: TrackedTarget): boolean {
  const url = URL.parse(href);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
  switch (tracked.match) {
    case "exact":
      return withoutFragment(url) === tracked.target;
    case "prefix":
      return withoutFragment(url).startsWith(tracked.target);
    case "domain": {
      const site = targetSite(tracked.target);
      return site !== null && siteOf(url.hostname) === site;
    }
  }
}
