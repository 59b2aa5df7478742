import type { Socket } from "node:net";
import { Agent, buildConnector } from "undici";
import { GuardError, resolveChecked, type GuardOptions } from "@/lib/net/resolve";
import { isAllowListed, PUBLIC_PORTS } from "@/lib/net/url-policy";

/**
 * An undici dispatcher that applies the address policy at connect time, to every connection it opens.
 *
 * Checking a URL before fetching it is not enough: DNS can answer differently a moment later
 * (DNS rebinding), and a redirect can point anywhere. So the check lives in the connector itself:
 * it resolves the host once, refuses the connection if any address is non-public, and then connects
 * to the checked IP, never to the name, so there is no second lookup an attacker could answer.
 * IP-literal hosts skip DNS but are checked all the same. TLS still verifies the certificate against
 * the original host name (SNI and checkServerIdentity use `servername`, derived from `host`).
 */

/** Options of createGuardedDispatcher. */
export interface GuardedDispatcherOptions extends GuardOptions {
  /** TCP/TLS connect timeout per address, ms (default 5,000). */
  connectTimeoutMs?: number;
  /** Sockets per origin; the link checker's per-host limit (default 2). */
  connectionsPerOrigin?: number;
}

/** Error code on the error a refused connection fails with, so callers can tell "blocked" from "down". */
export const BLOCKED_CONNECTION_CODE = "LINKLENS_BLOCKED";

/** The error a guarded connection fails with when the policy refuses it. */
export class BlockedConnectionError extends Error {
  readonly code = BLOCKED_CONNECTION_CODE;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BlockedConnectionError";
  }
}

/**
 * A connector (undici's `connect` option) that resolves, checks and pins the address.
 * Exported for tests and for callers that build their own Client/Pool.
 */
export function guardedConnector(options: GuardedDispatcherOptions): buildConnector.connector {
  const base = buildConnector({ timeout: options.connectTimeoutMs ?? 5_000 });
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === "https:" ? 443 : 80);
    const hostname = connectOptions.hostname;
    if (!PUBLIC_PORTS.has(port) && !isAllowListed(hostname, port, options.allowPrivateHosts)) {
      callback(new BlockedConnectionError(`Port ${port} is not allowed.`), null);
      return;
    }
    resolveChecked(hostname, port, options).then(
      (addresses) => {
        // Try each checked address in resolver order; the first that accepts wins.
        const attempt = (index: number, lastError: Error | null) => {
          const entry = addresses[index];
          if (!entry) {
            callback(lastError ?? new Error(`Could not connect to ${hostname}.`), null);
            return;
          }
          base({ ...connectOptions, hostname: entry.address }, (error: Error | null, socket: Socket | null) => {
            if (error || !socket) attempt(index + 1, error ?? lastError);
            else callback(null, socket);
          });
        };
        attempt(0, null);
      },
      (error: unknown) => {
        if (error instanceof GuardError && error.kind === "blocked") {
          callback(new BlockedConnectionError(error.message, { cause: error }), null);
        } else {
          callback(error instanceof Error ? error : new Error(String(error)), null);
        }
      },
    );
  };
}

/**
 * An undici Agent whose every connection goes through the address policy (see the module comment).
 * Use it as `dispatcher` of `undici.request`/`undici.fetch`; it never follows redirects by itself.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions): Agent {
  return new Agent({
    connect: guardedConnector(options),
    connections: options.connectionsPerOrigin ?? 2,
    // Keep-alive is fine: a pooled socket was checked when it was opened and stays pinned to that IP.
    keepAliveTimeout: 4_000,
  });
}

/** true when `error` (or its cause chain) is a connection the guard refused. */
export function isBlockedConnection(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (current instanceof BlockedConnectionError) return true;
    if (
      typeof current === "object" &&
      current !== null &&
      "code" in current &&
      current.code === BLOCKED_CONNECTION_CODE
    )
      return true;
    current = typeof current === "object" && current !== null && "cause" in current ? current.cause : undefined;
  }
  return false;
}
