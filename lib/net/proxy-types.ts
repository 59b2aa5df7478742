import type { Duplex } from "node:stream";
import type { GuardOptions } from "@/lib/net/resolve";

/** The filtering proxy's shapes, shared by its listener and the two ways it forwards (tunnel, plain HTTP). */

/** One refused attempt. */
export interface BlockedAttempt {
  kind: "connect" | "http" | "upgrade";
  /** Host as the client asked for it (URL.hostname form, IPv6 in brackets). */
  host: string;
  port: number;
  /** Absolute URL for plain-HTTP requests; CONNECT only reveals host:port. */
  url?: string;
  reason: string;
  at: number;
}

/** Options of FilteringProxy.start. */
export interface FilteringProxyOptions extends GuardOptions {
  /** Interface to listen on (default 127.0.0.1). Non-loopback only for a remote browser; see `clientFilter`. */
  bindHost?: string;
  /** Host the browser uses to reach the proxy (default: bindHost, or 127.0.0.1 when binding 0.0.0.0/::). */
  advertiseHost?: string;
  /** Which client addresses may use the proxy; default: loopback only when bound to loopback, else anyone. */
  clientFilter?: (remoteAddress: string) => boolean;
  /** Upstream TCP connect timeout per address, ms (default 10,000). */
  connectTimeoutMs?: number;
  /** Kept in memory per listener, newest last (default 1,000). */
  maxRecorded?: number;
  /**
   * Distinct refused hosts and URLs remembered per listener (default 1,000 each). The first ones are
   * kept, because the main document and its redirects are always a render's first requests; past the
   * cap refusals are only counted, so a page requesting 100k blocked URLs cannot grow memory.
   */
  maxBlockedKeys?: number;
}

/** Counters over every listener of a proxy, sessions included (tests and metrics). */
export interface ProxyTotals {
  blocked: number;
  allowed: number;
}

/** One listener of the proxy: the process-wide default one, or a render's session. */
export interface ProxyListener {
  /** `http://host:port`, for --proxy-server or a context's proxyServer. */
  readonly url: string;
  readonly port: number;
  /** Attempts refused on this listener, oldest first. */
  readonly blocked: readonly BlockedAttempt[];
  /** Upstream connections this listener opened (allowed attempts), for tests and metrics. */
  readonly allowedCount: number;
  /** Every refusal on this listener, including those past the recorded caps. */
  readonly blockedCount: number;
  /** true when this listener refused `hostname:port` (hostname as URL.hostname). */
  wasHostBlocked(hostname: string, port: number): boolean;
  /** true when this listener refused the plain-HTTP request for exactly `url`. */
  wasUrlBlocked(url: string): boolean;
  /** Stops listening and cuts every connection (client and upstream) it still holds. */
  close(): Promise<void>;
}

/** What a forwarder reports back to its listener about the upstream connections it opens. */
export interface UpstreamBook {
  /** Upstream TCP connect timeout per address, ms. */
  readonly connectTimeoutMs: number;
  /** Keeps `socket` to be cut when the listener closes (and keeps its errors from crashing the process). */
  track(socket: Duplex): void;
  /** Counts one upstream connection opened. */
  countAllowed(): void;
}
