import { lookup } from "node:dns/promises";
import { ApiError } from "@/lib/errors";
import { raceTimeout } from "@/lib/timeout";
import { isIpLiteral, isPublicAddress, stripBrackets } from "@/lib/net/address-policy";
import { isAllowListed, literalHostProblem } from "@/lib/net/url-policy";

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to every address it has. Injectable so tests can make `evil.test` point
 * at a canary on 127.0.0.2 without touching /etc/hosts.
 */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * getaddrinfo runs on libuv's thread pool (4 threads by default, shared with fs, zlib and crypto) and
 * cannot be cancelled: a lookup we stopped waiting for still holds its thread until the resolver gives
 * up. Busy resolvers also drop queries when many arrive at once, and each dropped one costs glibc's 5 s
 * retry. So at most this many lookups really run at once, process-wide; the rest wait their turn
 * (their wait counts against the caller's DNS timeout).
 */
export const MAX_CONCURRENT_LOOKUPS = 3;

const DEFAULT_DNS_TIMEOUT_MS = 5_000;

/**
 * Wraps a resolver so at most `max` of its lookups run at once. A slot is freed when the lookup itself
 * settles, not when a caller stops waiting, because that is when the thread is free again.
 */
export function boundedResolver(base: Resolver, max: number): Resolver {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async (hostname) => {
    if (running < max) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await base(hostname);
    } finally {
      release();
    }
  };
}

/**
 * Lookups started per second, process-wide, and how many may start at once after a quiet spell. A
 * bound on concurrency alone still let 3 slots start hundreds of lookups a second (each answers in a
 * millisecond), and the resolver here drops queries past a burst of about 25: each dropped one then
 * cost glibc's 5 s retry, which was most of a real page's URL-mode time (its subresources and links
 * name 30-50 hosts). Paced, a page with 50 new hosts spends about 1.5 s waiting for its turn instead.
 */
export const LOOKUPS_PER_SECOND = 20;
export const LOOKUP_BURST = 20;

/**
 * Wraps a resolver so its lookups start at most `perSecond` a second on average, `burst` at once
 * (a token bucket). Waiting counts against the caller's DNS timeout, like the concurrency bound.
 */
export function pacedResolver(
  base: Resolver,
  perSecond: number,
  burst: number,
  now: () => number = () => performance.now(),
): Resolver {
  let tokens = burst;
  let refilledAt = now();
  let queue: Promise<void> = Promise.resolve();
  const takeToken = async (): Promise<void> => {
    for (;;) {
      const current = now();
      tokens = Math.min(burst, tokens + ((current - refilledAt) * perSecond) / 1000);
      refilledAt = current;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((1 - tokens) * 1000) / perSecond)));
    }
  };
  return async (hostname) => {
    // One waiter at a time, in arrival order.
    const turn = queue.then(takeToken);
    queue = turn.catch(() => undefined);
    await turn;
    return base(hostname);
  };
}

/** The operating system's resolver (getaddrinfo, so /etc/hosts counts), every address, in its order. */
export const systemResolver: Resolver = pacedResolver(
  boundedResolver(async (hostname) => {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
  }, MAX_CONCURRENT_LOOKUPS),
  LOOKUPS_PER_SECOND,
  LOOKUP_BURST,
);

/** Options of cachingResolver. */
export interface DnsCacheOptions {
  /** How long an answer (or a failure) is reused, ms (default 30,000: longer than one analysis needs). */
  ttlMs?: number;
  /** A lookup slower than this is a failure, cached like one (default 5,000). */
  timeoutMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * One DNS answer per host for the life of one analysis: the render's proxy session and the link checker
 * share it, concurrent askers share one lookup, and failures (NXDOMAIN, timeouts) are cached too, so a
 * page with 40 links to a dead host costs one lookup, not 80 (its HEAD and its GET would each ask).
 * Host names are compared lowercased without a trailing dot.
 */
export function cachingResolver(base: Resolver, options: DnsCacheOptions = {}): Resolver {
  const ttlMs = options.ttlMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { at: number; answer: Promise<ResolvedAddress[]> }>();
  return (hostname) => {
    const key = hostname.toLowerCase().replace(/\.+$/, "");
    const cached = answers.get(key);
    if (cached && now() - cached.at < ttlMs) return cached.answer;
    const answer = raceTimeout(base(hostname), timeoutMs, () => new Error(`DNS lookup for ${hostname} timed out.`));
    // Callers each attach their own handlers; this one only keeps an unobserved failure quiet.
    answer.catch(() => undefined);
    answers.set(key, { at: now(), answer });
    return answer;
  };
}

/**
 * The DNS of one analysis: a cache (one answer per host, failures included) over a resolver whose
 * concurrent lookups are bounded. The system resolver is bounded process-wide already; an injected
 * one (tests, scripts) gets a bound of its own.
 */
export function analysisResolver(base?: Resolver, options?: DnsCacheOptions): Resolver {
  return cachingResolver(base ? boundedResolver(base, MAX_CONCURRENT_LOOKUPS) : systemResolver, options);
}

/**
 * A resolver that answers from a fixed table first and falls back to another resolver
 * (tests: `staticResolver({ "evil.test": ["127.0.0.2"] })`).
 */
export function staticResolver(table: Record<string, string[]>, fallback: Resolver = systemResolver): Resolver {
  const entries = new Map(Object.entries(table).map(([name, addresses]) => [name.toLowerCase(), addresses]));
  return async (hostname) => {
    const hit = entries.get(hostname.toLowerCase().replace(/\.+$/, ""));
    if (!hit) return fallback(hostname);
    return hit.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

/** Options shared by every guarded network path. */
export interface GuardOptions {
  /** ALLOW_PRIVATE_HOSTS entries: `host:port`, lowercased. */
  allowPrivateHosts: readonly string[];
  /** DENY_HOSTS entries: lowercased hostnames; each covers its subdomains. Refused before any lookup. */
  denyHosts?: readonly string[];
  /** Defaults to the system resolver. */
  resolver?: Resolver;
  /** Upper bound on one DNS answer; getaddrinfo cannot be cancelled, so we stop waiting instead. */
  dnsTimeoutMs?: number;
}

/** A network-guard refusal: `kind` tells whether it was the address policy or a lookup failure. */
export class GuardError extends Error {
  constructor(
    readonly kind: "blocked" | "dns",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GuardError";
  }
}

/** A refusal because the host is on the operator's deny list (DENY_HOSTS), decided before any lookup. */
export class DeniedHostError extends GuardError {
  constructor(hostname: string) {
    super("blocked", `${hostname} is on this service's deny list.`);
    this.name = "DeniedHostError";
  }
}

/**
 * true when `hostname` (URL.hostname form) is a deny-listed name or a subdomain of one. Entries and host
 * are compared lowercased, without a trailing dot; IP literals only match an identical entry.
 */
export function isDeniedHost(hostname: string, denyHosts: readonly string[] | undefined): boolean {
  if (!denyHosts || denyHosts.length === 0) return false;
  const host = stripBrackets(hostname).toLowerCase().replace(/\.+$/, "");
  return denyHosts.some((entry) => host === entry || host.endsWith(`.${entry}`));
}

/**
 * Resolves `hostname` and checks every address it has against the address policy.
 * The low-level twin of assertPublicHost: throws GuardError, not ApiError, so the proxy and the link
 * checker can turn it into a 403 or a status 0 without string matching.
 *
 * @returns the checked addresses, in resolver order. Callers must connect to these and never resolve again
 *   (a second answer could be a DNS-rebinding one).
 */
export async function resolveChecked(
  hostname: string,
  port: number,
  options: GuardOptions,
): Promise<ResolvedAddress[]> {
  if (isDeniedHost(hostname, options.denyHosts)) throw new DeniedHostError(hostname);
  const allowed = isAllowListed(hostname, port, options.allowPrivateHosts);
  const bare = stripBrackets(hostname);
  if (isIpLiteral(bare)) {
    if (!allowed && !isPublicAddress(bare)) throw new GuardError("blocked", `${hostname} is not a public address.`);
    return [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
  }
  if (!allowed) {
    const problem = literalHostProblem(hostname);
    if (problem) throw new GuardError("blocked", problem);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await raceTimeout(
      (options.resolver ?? systemResolver)(hostname),
      options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS,
      () => new Error(`DNS lookup for ${hostname} timed out.`),
    );
  } catch (error) {
    throw new GuardError("dns", `${hostname} could not be resolved.`, { cause: error });
  }
  if (addresses.length === 0) throw new GuardError("dns", `${hostname} has no address.`);
  // One private answer taints the whole name: a client may pick any of them, and attackers mix
  // a public and a private record to pass a check that looks at the first answer only.
  if (!allowed && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new GuardError("blocked", `${hostname} resolves to a non-public address.`);
  }
  return addresses;
}

/**
 * Resolves `hostname` (dns.lookup, all addresses) and makes sure every address is public.
 *
 * @param hostname URL.hostname (IPv6 literals may keep their brackets; they skip DNS).
 * @param port the effective port, for the allow-list match.
 * @param allow ALLOW_PRIVATE_HOSTS entries; an allow-listed `host:port` is resolved but not checked.
 * @param options injectable resolver and DNS timeout.
 * @returns the checked addresses.
 * @throws ApiError BLOCKED_URL when any address is not public; UPSTREAM_ERROR when DNS fails.
 */
export async function assertPublicHost(
  hostname: string,
  port: number,
  allow: readonly string[],
  options: Omit<GuardOptions, "allowPrivateHosts"> = {},
): Promise<ResolvedAddress[]> {
  try {
    return await resolveChecked(hostname, port, { ...options, allowPrivateHosts: allow });
  } catch (error) {
    if (error instanceof DeniedHostError) {
      throw new ApiError("BLOCKED_URL", `The URL's host ${hostname} is on this service's deny list.`, { cause: error });
    }
    if (error instanceof GuardError && error.kind === "blocked") {
      throw new ApiError("BLOCKED_URL", `The URL's host ${hostname} is not a public address.`, { cause: error });
    }
    throw new ApiError("UPSTREAM_ERROR", `The host ${hostname} could not be resolved.`, { cause: error });
  }
}
