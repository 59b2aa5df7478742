import { getDomain } from "tldts";
import type { LinkType } from "../types";

/** The result of resolving and classifying one href attribute. */
export interface ClassifiedHref {
  /** WHATWG serialization of the resolved URL, or the raw attribute when it does not parse. */
  href: string;
  linkType: LinkType;
  /** The URL's hostname for http(s) links (internal or external), else null. */
  hostname: string | null;
}

/** What classification needs to know about the page, computed once per document. */
export interface PageContext {
  /** The document URL without its fragment (same-document links are compared against it). */
  documentUrlNoFragment: string;
  /** The base URL relative hrefs resolve against: a valid `<base href>` or the page URL. */
  baseUrl: URL;
  /** Lowercased, punycoded host of the page URL, brackets kept for IPv6 (URL.hostname). */
  pageHost: string;
  /** Registrable domain of the page host, or null for IPs, single labels and bare public suffixes. */
  pageSite: string | null;
}

/** ASCII whitespace as the HTML standard defines it (what browsers strip around an href). */
const ASCII_WHITESPACE_EDGES = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/** Returns `href` without its fragment (`#…`), or unchanged when it has none. */
export function stripFragment(href: string): string {
  const hash = href.indexOf("#");
  return hash === -1 ? href : href.slice(0, hash);
}

// Public-suffix lookups are cheap but a page may hold 100,000 links to a handful of hosts.
const siteCache = new Map<string, string | null>();
const SITE_CACHE_MAX = 10_000;

/**
 * The registrable domain ("site") of a URL hostname, using the public suffix list including its
 * private section (so `a.github.io` and `b.github.io` are different sites). null when the host has
 * none: an IP address, a single label such as `localhost`, or a bare public suffix.
 */
export function registrableDomain(hostname: string): string | null {
  const cached = siteCache.get(hostname);
  if (cached !== undefined) return cached;
  let site: string | null = null;
  // IPv6 literals keep their brackets in URL.hostname; IPv4 is canonical dotted decimal after the
  // URL parser, which tldts's IP detection recognizes. A single label has no registrable domain
  // (tldts would otherwise apply the PSL's implicit "*" rule to it).
  if (!hostname.startsWith("[") && hostname.replace(/\.$/, "").includes(".")) {
    site = getDomain(hostname, { allowPrivateDomains: true, extractHostname: false });
    if (site !== null) site = site.replace(/\.$/, "");
  }
  if (siteCache.size >= SITE_CACHE_MAX) siteCache.clear();
  siteCache.set(hostname, site);
  return site;
}

/**
 * The site of a hostname for domain groups and monitors: its registrable domain, or the host itself
 * (lowercased, no trailing dot) when it has none (IPs, single labels), which then only matches itself.
 */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return registrableDomain(host) ?? host;
}

/**
 * Builds the classification context of a page. `baseHref` is the raw href of the first `<base>`
 * element that has one (null if none); an unparseable base falls back to the page URL.
 */
export function createPageContext(pageUrl: string, baseHref: string | null): PageContext {
  const page = new URL(pageUrl);
  let baseUrl = page;
  if (baseHref !== null) {
    // The base element's own href is resolved against the document URL (HTML "frozen base URL").
    const parsed = URL.parse(baseHref.replace(ASCII_WHITESPACE_EDGES, ""), page);
    if (parsed !== null) baseUrl = parsed;
  }
  return {
    documentUrlNoFragment: stripFragment(page.href),
    baseUrl,
    pageHost: page.hostname,
    pageSite: registrableDomain(page.hostname),
  };
}

/**
 * Resolves one raw href attribute value and classifies it per decisions.md "Analysis definitions":
 * ignored (empty, non-http(s), same-document fragment, unparseable), internal (same registrable
 * domain, or the exact same IP/single-label host) or external.
 */
export function classifyHref(raw: string, context: PageContext): ClassifiedHref {
  const trimmed = raw.replace(ASCII_WHITESPACE_EDGES, "");
  const url = URL.parse(trimmed, context.baseUrl);
  if (url === null) return { href: raw, linkType: "ignored", hostname: null };
  const href = url.href;
  if (trimmed === "") return { href, linkType: "ignored", hostname: null };
  if (url.protocol !== "http:" && url.protocol !== "https:") return { href, linkType: "ignored", hostname: null };
  // A fragment exists iff the serialization has a "#" (it is percent-encoded everywhere else), which
  // also catches a bare "#" whose fragment is empty. Compared with the document URL, not the base.
  const hash = href.indexOf("#");
  if (hash !== -1 && href.slice(0, hash) === context.documentUrlNoFragment)
    return { href, linkType: "ignored", hostname: null };
  return { href, linkType: isSameSite(url.hostname, context) ? "internal" : "external", hostname: url.hostname };
}

function isSameSite(hostname: string, context: PageContext): boolean {
  if (hostname === context.pageHost) return true;
  const site = registrableDomain(hostname);
  return site !== null && site === context.pageSite;
}
