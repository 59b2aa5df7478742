import { getConfig, listenOrigin, type Config } from "../config";

/** Header access shared by Fetch's Headers and a Node request (server/main.ts). */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

const HOST_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** hostname[:port]: DNS labels (no leading/trailing hyphen, at most 253 characters) or a bracketed IPv6 literal. */
const STRICT_HOST = new RegExp(
  `^(?:(?=[^:]{1,253}(?::|$))${HOST_LABEL}(?:\\.${HOST_LABEL})*\\.?|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?$`,
  "i",
);

/** True for a Host header value that is a plain hostname[:port] (port 1–65535), nothing else. */
export function isStrictHost(host: string): boolean {
  const match = STRICT_HOST.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
}

/**
 * The origin the client used, from Host (and X-Forwarded-Proto/Host behind trusted proxies), or null
 * when that value fails the strict hostname[:port] check: a forged Host must never reach a body.
 */
export function originFromHeaders(headers: HeaderSource, behindProxy: boolean): string | null {
  const forwardedHost = behindProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || headers.get("host");
  if (!host || !isStrictHost(host)) return null;
  const forwardedProto = behindProxy ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const protocol = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : "http";
  return `${protocol}://${host.toLowerCase()}`;
}

/**
 * The public origin for absolute URLs (documents, Error `docs`): SITE_URL when set, else the request's
 * Host if it passes the strict check, else `listenOrigin` (the address the server listens on).
 */
export function publicOrigin(
  headers: HeaderSource,
  config: Pick<Config, "SITE_URL" | "TRUSTED_PROXY_HOPS">,
  listenOrigin: string,
): string {
  if (config.SITE_URL) return config.SITE_URL.replace(/\/+$/, "");
  return originFromHeaders(headers, config.TRUSTED_PROXY_HOPS > 0) ?? listenOrigin;
}

/** The public origin of a route's request. */
export function siteOrigin(request: Request): string {
  const config = getConfig();
  return publicOrigin(request.headers, config, listenOrigin(config));
}

/** The absolute /docs URL; an Error body's `docs` adds the code's anchor. */
export function docsPageUrl(origin: string): string {
  return `${origin}/docs`;
}
