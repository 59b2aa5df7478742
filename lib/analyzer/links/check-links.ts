import { request, type Dispatcher } from "undici";
import type { Config } from "@/lib/config";
import { createGuardedDispatcher, isBlockedConnection } from "@/lib/net/guarded-dispatcher";
import { GuardError, isDeniedHost, type Resolver } from "@/lib/net/resolve";
import { NO_RESPONSE, NOT_CHECKED } from "@/lib/link-status";
import { BOT_USER_AGENT } from "../user-agent";

/**
 * The link checker: the HTTP status of every captured internal/external link, through the same
 * address policy as the page (every redirect hop included: the guarded dispatcher checks each
 * connection it opens and pins the checked IP).
 *
 * Polite by construction: HEAD first, GET only when HEAD got an answer that was not 2xx or was dropped
 * after connecting (never after a DNS or connection failure: GET would fail the same way), bodies never read
 * (cancelled at once, `accept-encoding: identity` so nothing is decompressed), no cookies, no
 * Referer, an honest User-Agent, at most LINK_CHECK_CONCURRENCY requests at once and 2 per host.
 */

/** Redirects followed per link before its last 3xx is the answer. */
export const MAX_REDIRECTS = 5;
/** Simultaneous checks per host. */
export const PER_HOST_LIMIT = 2;

/** Options of checkLinks. The settings come from the caller (read once at the front door), never from the environment here. */
export interface CheckLinksOptions {
  config: Pick<Config, "LINK_CHECK_MAX" | "LINK_CHECK_CONCURRENCY" | "LINK_CHECK_TIMEOUT_MS" | "ALLOW_PRIVATE_HOSTS"> &
    Partial<Pick<Config, "DENY_HOSTS">>;
  /**
   * DNS for the guard: one analysis's cache (shared with its render), or a test's. A custom resolver gets
   * its own dispatcher, closed at the end.
   */
  resolver?: Resolver;
  /** Overall deadline in ms for the whole batch (default max(10 s, 3 × LINK_CHECK_TIMEOUT_MS)). */
  deadlineMs?: number;
  /** Aborts the batch; URLs not finished are left out of the result. */
  signal?: AbortSignal;
  /** A dispatcher to use instead of the guarded default (it must apply the address policy itself). */
  dispatcher?: Dispatcher;
}

/**
 * The key a link's status is stored under: the absolute URL without its fragment (`#…` never reaches
 * the server, so `/a#x` and `/a#y` are one check). Unparsable input is returned as is.
 */
export function checkKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url;
  }
}

/** One request's outcome: a response, or no HTTP response at all (and whether the guard refused). */
type Attempt =
  | { status: number; location: string | null }
  | { status: null; blocked: boolean; aborted: boolean; unreachable: boolean };
/** checkOne's answer: an HTTP status, NO_RESPONSE, or NOT_CHECKED when the batch ended first. */
type Outcome = number | typeof NOT_CHECKED;

/** Error codes meaning "no connection was made": retrying with another method cannot help. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** true when `error` (or its cause chain) is a DNS, connect or TLS failure rather than a dropped request. */
function isUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    if (current instanceof GuardError) return true;
    const code = "code" in current && typeof current.code === "string" ? current.code : "";
    if (UNREACHABLE_CODES.has(code) || /CERT|TLS|SSL/.test(code)) return true;
    current = "cause" in current ? current.cause : undefined;
  }
  return false;
}

/**
 * The batch's allowance of unique URLs (LINK_CHECK_MAX), redirect hops included: a hop to a URL not
 * requested yet spends one, so a page of redirecting links cannot multiply the requests we send.
 */
class UrlBudget {
  private readonly requested = new Set<string>();
  constructor(private readonly max: number) {}
  /** true when `href` was requested before or may be now (and records it). */
  admit(href: string): boolean {
    if (this.requested.has(href)) return true;
    if (this.requested.size >= this.max) return false;
    this.requested.add(href);
    return true;
  }
  get used(): number {
    return this.requested.size;
  }
}

/** What one check may do besides requesting: the batch's budget and the operator's deny list. */
interface CheckScope {
  budget: UrlBudget;
  denyHosts: readonly string[];
}

let defaultDispatcher: { key: string; dispatcher: Dispatcher } | null = null;

function sharedDispatcher(allow: readonly string[], deny: readonly string[], timeoutMs: number): Dispatcher {
  const key = `${allow.join(",")}|${deny.join(",")}|${timeoutMs}`;
  if (defaultDispatcher?.key !== key) {
    void defaultDispatcher?.dispatcher.close().catch(() => undefined);
    defaultDispatcher = {
      key,
      dispatcher: createGuardedDispatcher({
        allowPrivateHosts: allow,
        denyHosts: deny,
        connectTimeoutMs: timeoutMs,
        connectionsPerOrigin: PER_HOST_LIMIT,
      }),
    };
  }
  return defaultDispatcher.dispatcher;
}

async function attempt(
  url: URL,
  method: "HEAD" | "GET",
  dispatcher: Dispatcher,
  timeoutMs: number,
  batch: AbortSignal,
): Promise<Attempt> {
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), batch]);
  try {
    const response = await request(url, {
      method,
      dispatcher,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: {
        // Sent with every check, so site owners can see who we are and read why.
        "user-agent": BOT_USER_AGENT,
        accept: "text/html,application/xhtml+xml,*/*;q=0.8",
        // Never decompress anything: we do not read bodies at all.
        "accept-encoding": "identity",
      },
    });
    const location = response.headers.location;
    // A HEAD body is empty (dump keeps the socket reusable); a GET body is cancelled unread.
    if (method === "HEAD") {
      await response.body.dump({ limit: 0 }).catch(() => undefined);
    } else {
      // destroy() makes the body emit an AbortError; that is the point, not a failure.
      response.body.on("error", () => undefined);
      response.body.destroy();
    }
    return { status: response.statusCode, location: typeof location === "string" ? location : (location?.[0] ?? null) };
  } catch (error) {
    return {
      status: null,
      blocked: isBlockedConnection(error),
      aborted: batch.aborted,
      unreachable: isUnreachable(error),
    };
  }
}

/**
 * Checks one URL: HEAD, then GET if HEAD failed or was not 2xx; redirects followed by hand (each hop
 * through the guard) up to MAX_REDIRECTS. Returns the final status, 0 for no HTTP response, or null
 * when the link stays unchecked: the batch was aborted first, the URL budget is spent, or a hop leads
 * to a deny-listed host (the operator's choice says nothing about the link's health).
 */
async function checkOne(
  start: URL,
  dispatcher: Dispatcher,
  timeoutMs: number,
  batch: AbortSignal,
  scope: CheckScope,
): Promise<Outcome> {
  let current = start;
  let method: "HEAD" | "GET" = "HEAD";
  for (let redirects = 0; ; redirects += 1) {
    // Credentials in a link are never sent on the user's behalf.
    current.username = "";
    current.password = "";
    if (isDeniedHost(current.hostname, scope.denyHosts) || !scope.budget.admit(current.href)) return NOT_CHECKED;
    let result = await attempt(current, method, dispatcher, timeoutMs, batch);
    if (result.status === null && (result.aborted || result.blocked || result.unreachable))
      return result.aborted ? NOT_CHECKED : NO_RESPONSE;
    const isRedirect =
      result.status !== null && result.status >= 300 && result.status < 400 && result.location !== null;
    if (method === "HEAD" && !isRedirect && (result.status === null || result.status < 200 || result.status >= 300)) {
      // Many servers answer HEAD with 405/404/403 or drop it; GET is the real question.
      const retry = await attempt(current, "GET", dispatcher, timeoutMs, batch);
      if (retry.status === null && retry.aborted) return NOT_CHECKED;
      if (retry.status !== null) {
        method = "GET";
        result = retry;
      } else if (result.status === null || retry.blocked) {
        return NO_RESPONSE;
      }
    }
    if (result.status === null) return NO_RESPONSE;
    if (!(result.status >= 300 && result.status < 400) || !("location" in result) || result.location === null)
      return result.status;
    if (redirects >= MAX_REDIRECTS) return result.status;
    let next: URL;
    try {
      next = new URL(result.location, current);
    } catch {
      return result.status;
    }
    // A redirect to mailto:, ftp:, file: … leads nowhere we may go: no HTTP answer for this link.
    if (next.protocol !== "http:" && next.protocol !== "https:") return NO_RESPONSE;
    current = next;
  }
}

/**
 * Checks links and returns the HTTP status of each unique URL (key: checkKey(url)).
 *
 * - Input: absolute http(s) URLs (others are skipped). Duplicates, fragments aside, are checked once.
 * - At most LINK_CHECK_MAX unique URLs are requested, redirect hops included, in input order; links
 *   left over are absent from the map (unchecked). Links to DENY_HOSTS are never requested (absent too).
 * - Status: the final response after up to 5 redirects; 0 when there was no HTTP response at all
 *   (DNS, refused, TLS, timeout, or an address the policy blocks).
 * - URLs still running at the overall deadline (or on abort) are absent, not 0: unchecked, not broken.
 */
export async function checkLinks(urls: string[], options: CheckLinksOptions): Promise<Map<string, number>> {
  const config = options.config;
  const timeoutMs = config.LINK_CHECK_TIMEOUT_MS;
  const results = new Map<string, number>();

  const unique: Array<{ key: string; url: URL; host: string }> = [];
  const seen = new Set<string>();
  const denyHosts = config.DENY_HOSTS ?? [];
  for (const raw of urls) {
    if (unique.length >= config.LINK_CHECK_MAX) break;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    const key = checkKey(url.href);
    if (seen.has(key) || isDeniedHost(url.hostname, denyHosts)) continue;
    seen.add(key);
    url.hash = "";
    unique.push({ key, url, host: url.hostname });
  }
  if (unique.length === 0) return results;

  const ownDispatcher =
    !options.dispatcher && options.resolver
      ? createGuardedDispatcher({
          allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS,
          denyHosts,
          resolver: options.resolver,
          connectTimeoutMs: timeoutMs,
          connectionsPerOrigin: PER_HOST_LIMIT,
        })
      : null;
  const dispatcher =
    options.dispatcher ?? ownDispatcher ?? sharedDispatcher(config.ALLOW_PRIVATE_HOSTS, denyHosts, timeoutMs);
  const scope: CheckScope = { budget: new UrlBudget(config.LINK_CHECK_MAX), denyHosts };
  const deadline = AbortSignal.timeout(options.deadlineMs ?? Math.max(10_000, 3 * timeoutMs));
  const batch = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;

  // A tiny scheduler: start the first waiting URL whose host has a free slot, while global slots last.
  const perHost = new Map<string, number>();
  const waiting = [...unique];
  let running = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
      if (batch.aborted) waiting.length = 0;
      while (running < config.LINK_CHECK_CONCURRENCY) {
        const index = waiting.findIndex((item) => (perHost.get(item.host) ?? 0) < PER_HOST_LIMIT);
        if (index === -1) break;
        const [item] = waiting.splice(index, 1);
        if (!item) break;
        running += 1;
        perHost.set(item.host, (perHost.get(item.host) ?? 0) + 1);
        void checkOne(item.url, dispatcher, timeoutMs, batch, scope)
          .then((status) => {
            if (status !== NOT_CHECKED && !batch.aborted) results.set(item.key, status);
          })
          .catch(() => undefined)
          .finally(() => {
            running -= 1;
            perHost.set(item.host, (perHost.get(item.host) ?? 1) - 1);
            pump();
          });
      }
      if (running === 0) resolve();
    };
    batch.addEventListener("abort", pump, { once: true });
    pump();
  });
  if (ownDispatcher) await ownDispatcher.close().catch(() => undefined);
  return results;
}
