import type { Link } from "@/lib/api/schemas";

/**
 * "Find my link": does the page link to a domain, or to a URL?
 * A domain matches its own host and every subdomain (host equals it or ends with ".domain");
 * a leading "www." in the query is dropped, since people type it without meaning "only www".
 * A URL with a path matches links to the same host (www. ignored) whose path and query start with
 * the given ones; the scheme does not matter (http → https migrations). A URL without a path is a domain.
 */
export type FindTarget =
  { kind: "domain"; host: string; label: string } | { kind: "url"; host: string; pathPrefix: string; label: string };

function stripWww(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : host;
}

export function parseFindTarget(input: string): FindTarget | null {
  const raw = input.trim();
  if (!raw) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = stripWww(url.hostname.replace(/\.$/, ""));
  if (!host) return null;
  const pathPrefix = `${url.pathname}${url.search}`;
  // A bare host (or a URL of its home page) means the whole site; a path means that page or section.
  if (pathPrefix === "/") return { kind: "domain", host, label: host };
  return { kind: "url", host, pathPrefix, label: `${host}${pathPrefix}` };
}

function linkUrl(link: Link): URL | null {
  if (link.linkType === "ignored") return null;
  try {
    return new URL(link.href);
  } catch {
    return null;
  }
}

export function linkMatches(link: Link, target: FindTarget): boolean {
  const url = linkUrl(link);
  if (!url) return false;
  const host = url.hostname.replace(/\.$/, "");
  if (target.kind === "domain") return host === target.host || host.endsWith(`.${target.host}`);
  if (stripWww(host) !== target.host) return false;
  return `${url.pathname}${url.search}`.startsWith(target.pathPrefix);
}

export function findLinks(links: readonly Link[], target: FindTarget): Link[] {
  return links.filter((link) => linkMatches(link, target));
}
