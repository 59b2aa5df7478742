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

/** The operating system's resolver (getaddrinfo, so /etc/hosts counts), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

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

const DEFAULT_DNS_TIMEOUT_MS = 5_000;

/**
 * Resolves `hostname` and checks every address it has against the address policy.
 * The low-level twin of assertPublicHost: throws GuardError, not ApiError, so the proxy and the link
 * checker can turn it into a 403 or a status 0 without string matching.
 *
 * @returns the checked addresses, in resolver order. Callers must connect to these and never resolve again
 *   (a second answer could be a DNS-rebinding one).
 */
export async function resolveChecked(hostname: string, port: number, options: GuardOptions): Promise<ResolvedAddress[]> {
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
    if (error instanceof GuardError && error.kind === "blocked") {
      throw new ApiError("BLOCKED_URL", `The URL's host ${hostname} is not a public address.`, { cause: error });
    }
    throw new ApiError("UPSTREAM_ERROR", `The host ${hostname} could not be resolved.`, { cause: error });
  }
}
