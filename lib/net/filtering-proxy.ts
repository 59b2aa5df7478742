import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { stripBrackets } from "@/lib/net/address-policy";
import { GuardError, resolveChecked, type GuardOptions, type ResolvedAddress } from "@/lib/net/resolve";
import { effectivePort, hostPortKey, isAllowListed, PUBLIC_PORTS } from "@/lib/net/url-policy";

/**
 * The egress filter for Chromium: an in-process HTTP proxy that every byte the browser sends
 * to the network must pass (launched with --proxy-server and `<-loopback>` so even 127.0.0.1 goes
 * through it). Request interception in the page is only a second layer; it cannot see every request
 * (workers, prefetch, WebSocket, beacons, navigations started by the network service). The proxy can.
 *
 * For each CONNECT (https, wss) or absolute-URI request (http, ws over http) it resolves the host
 * once, refuses if any address is non-public (or the port is not 80/443) unless `host:port` is
 * allow-listed, and then connects to the checked IP: no second lookup, so DNS rebinding cannot
 * swap the address after the check.
 *
 * Sessions: each render opens its own listener (same policy, own port) and gives it to its
 * incognito context as `proxyServer`. What a session refused is then known to belong to that
 * render, which is how the renderer tells "the page itself was blocked" from "a subresource was".
 */

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

/** Per-session overrides of FilteringProxy.openSession. */
export interface SessionOptions {
  /** DNS for this session only: one analysis's shared cache (see cachingResolver). */
  resolver?: GuardOptions["resolver"];
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

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function isLoopback(address: string): boolean {
  const bare = address.replace(/^::ffff:/, "");
  return bare === "::1" || bare.startsWith("127.");
}

/** Parses CONNECT's `host:port` (IPv6 in brackets) into the canonical URL.hostname form. */
function parseAuthority(authority: string | undefined): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):(\d{1,5})$/.exec(authority ?? "");
  if (!match?.[1] || !match[2]) return null;
  try {
    // The WHATWG parser canonicalises the host exactly as it does for URLs (0x7f.1 → 127.0.0.1, IDN → punycode).
    const host = new URL(`http://${match[1]}/`).hostname;
    const port = Number(match[2]);
    if (port < 1 || port > 65_535) return null;
    return { host, port };
  } catch {
    return null;
  }
}

class Listener implements ProxyListener {
  readonly blocked: BlockedAttempt[] = [];
  allowedCount = 0;
  blockedCount = 0;
  private readonly sockets = new Set<Duplex>();
  private readonly server: http.Server;
  private readonly blockedHosts = new Set<string>();
  private readonly blockedUrls = new Set<string>();
  port = 0;
  url = "";

  constructor(
    private readonly options: FilteringProxyOptions,
    private readonly totals: ProxyTotals,
    private readonly onClose?: () => void,
  ) {
    this.server = http.createServer({ requestTimeout: 0, headersTimeout: 30_000 });
    this.server.on("connection", (socket: Socket) => {
      const remote = socket.remoteAddress ?? "";
      if (!this.acceptsClient(remote)) {
        socket.destroy();
        return;
      }
      this.track(socket);
    });
    this.server.on("request", (req: IncomingMessage, res: ServerResponse) => void this.onRequest(req, res));
    this.server.on("connect", (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head));
    this.server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket, head));
    this.server.on("clientError", (_error, socket: Duplex) => socket.destroy());
  }

  async listen(): Promise<void> {
    const bindHost = this.options.bindHost ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, bindHost, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const address = this.server.address();
    if (!address || typeof address === "string") throw new Error("proxy: no listening address");
    this.port = address.port;
    const wildcard = bindHost === "0.0.0.0" || bindHost === "::";
    const advertise = this.options.advertiseHost ?? (wildcard ? "127.0.0.1" : bindHost);
    this.url = `http://${advertise.includes(":") ? `[${advertise}]` : advertise}:${this.port}`;
  }

  wasHostBlocked(hostname: string, port: number): boolean {
    return this.blockedHosts.has(hostPortKey(hostname, port));
  }

  wasUrlBlocked(url: string): boolean {
    return this.blockedUrls.has(url);
  }

  async close(): Promise<void> {
    this.onClose?.();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private acceptsClient(remote: string): boolean {
    if (this.options.clientFilter) return this.options.clientFilter(remote);
    const bindHost = this.options.bindHost ?? "127.0.0.1";
    return isLoopback(bindHost) ? isLoopback(remote) : true;
  }

  private countAllowed(): void {
    this.allowedCount += 1;
    this.totals.allowed += 1;
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    // An error on one connection must never take the process down.
    socket.on("error", () => socket.destroy());
  }

  private record(attempt: Omit<BlockedAttempt, "at">): void {
    this.totals.blocked += 1;
    this.blockedCount += 1;
    this.blocked.push({ ...attempt, at: Date.now() });
    const max = this.options.maxRecorded ?? 1_000;
    if (this.blocked.length > max) this.blocked.splice(0, this.blocked.length - max);
    const maxKeys = this.options.maxBlockedKeys ?? 1_000;
    if (this.blockedHosts.size < maxKeys) this.blockedHosts.add(hostPortKey(attempt.host, attempt.port));
    if (attempt.url && this.blockedUrls.size < maxKeys) this.blockedUrls.add(attempt.url);
  }

  /** Applies the policy; returns the addresses to dial, or why not (HTTP status + reason). */
  private async check(host: string, port: number): Promise<{ addresses: ResolvedAddress[] } | { status: number; reason: string; blocked: boolean }> {
    if (!PUBLIC_PORTS.has(port) && !isAllowListed(host, port, this.options.allowPrivateHosts)) {
      return { status: 403, reason: `port ${port} is not allowed`, blocked: true };
    }
    try {
      return { addresses: await resolveChecked(host, port, this.options) };
    } catch (error) {
      if (error instanceof GuardError && error.kind === "blocked") return { status: 403, reason: error.message, blocked: true };
      return { status: 502, reason: error instanceof Error ? error.message : "DNS failure", blocked: false };
    }
  }

  /** Dials the checked addresses in order; never resolves a name. */
  private dial(addresses: ResolvedAddress[], port: number): Promise<Socket> {
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const attempt = (index: number, lastError: Error | null) => {
        const entry = addresses[index];
        if (!entry) {
          reject(lastError ?? new Error("no address to connect to"));
          return;
        }
        // `host` is an IP literal here, so net.connect does no DNS lookup of its own.
        const socket = net.connect({ host: stripBrackets(entry.address), port });
        const timer = setTimeout(() => socket.destroy(new Error("connect timeout")), timeoutMs);
        socket.once("connect", () => {
          clearTimeout(timer);
          socket.removeAllListeners("error");
          resolve(socket);
        });
        socket.once("error", (error) => {
          clearTimeout(timer);
          socket.destroy();
          attempt(index + 1, error);
        });
      };
      attempt(0, null);
    });
  }

  private async onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url);
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const verdict = await this.check(target.host, target.port);
    if (!("addresses" in verdict)) {
      if (verdict.blocked) this.record({ kind: "connect", host: target.host, port: target.port, reason: verdict.reason });
      client.end(`HTTP/1.1 ${verdict.status} ${verdict.blocked ? "Forbidden" : "Bad Gateway"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    let upstream: Socket;
    try {
      upstream = await this.dial(verdict.addresses, target.port);
    } catch {
      client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    this.countAllowed();
    this.track(upstream);
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    splice(client, upstream, head);
  }

  /** Absolute-URI target of a proxied plain-HTTP request, or null. */
  private absoluteTarget(req: IncomingMessage, schemes: readonly string[]): URL | null {
    try {
      const url = new URL(req.url ?? "");
      return schemes.includes(url.protocol) ? url : null;
    } catch {
      return null;
    }
  }

  private forwardHeaders(req: IncomingMessage, target: URL): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers[name] = value;
    }
    headers.host = target.host;
    return headers;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = this.absoluteTarget(req, ["http:"]);
    if (!target) {
      res.writeHead(400, { "content-type": "text/plain", connection: "close" }).end("LinkLens proxy: absolute http URL required");
      return;
    }
    const port = effectivePort(target);
    const verdict = await this.check(target.hostname, port);
    if (!("addresses" in verdict)) {
      if (verdict.blocked) this.record({ kind: "http", host: target.hostname, port, url: target.href, reason: verdict.reason });
      res.writeHead(verdict.status, { "content-type": "text/plain", "x-linklens-proxy": verdict.blocked ? "blocked" : "error" });
      res.end(verdict.blocked ? "Blocked by LinkLens: not a public address." : "LinkLens proxy: upstream lookup failed.");
      return;
    }
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    let attemptIndex = 0;
    const send = () => {
      const entry = verdict.addresses[attemptIndex];
      if (!entry) {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", "x-linklens-proxy": "error" });
        res.end("LinkLens proxy: upstream unreachable.");
        return;
      }
      const upstream = http.request({
        host: stripBrackets(entry.address),
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: this.forwardHeaders(req, target),
        setHost: false,
        agent: false,
        timeout: timeoutMs,
      });
      let connected = false;
      upstream.on("socket", (socket: Socket) => {
        this.track(socket);
        socket.once("connect", () => {
          connected = true;
          this.countAllowed();
        });
      });
      upstream.on("timeout", () => upstream.destroy(new Error("upstream timeout")));
      upstream.on("error", () => {
        if (!connected && !res.headersSent) {
          attemptIndex += 1;
          send();
          return;
        }
        res.destroy();
      });
      upstream.on("response", (upstreamRes) => {
        // Strip the upstream's hop-by-hop headers and keep the rest verbatim (rawHeaders keeps repeats).
        const headers: string[] = [];
        for (let i = 0; i + 1 < upstreamRes.rawHeaders.length; i += 2) {
          const name = upstreamRes.rawHeaders[i] ?? "";
          if (HOP_BY_HOP.has(name.toLowerCase())) continue;
          headers.push(name, upstreamRes.rawHeaders[i + 1] ?? "");
        }
        try {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, headers);
        } catch {
          // Node's parser accepts status lines its own writer refuses (a status of 099, a control
          // character in the reason phrase, a header value it deems invalid). Thrown from an event
          // handler, that would be an uncaughtException and the browser would wait for its timeout.
          upstreamRes.destroy();
          upstream.destroy();
          if (!res.headersSent) {
            // The failed call already stored the bad reason phrase on `res`: name ours explicitly.
            res.writeHead(502, "Bad Gateway", { "content-type": "text/plain", "x-linklens-proxy": "error", connection: "close" });
          }
          res.end("LinkLens proxy: the upstream answered a malformed response.");
          return;
        }
        upstreamRes.pipe(res);
        upstreamRes.on("error", () => res.destroy());
      });
      res.on("close", () => upstream.destroy());
      if (attemptIndex === 0) req.pipe(upstream);
      else upstream.end();
    };
    // Request bodies are streamed once; a retry on the next address only makes sense for bodiless requests.
    if (req.method !== "GET" && req.method !== "HEAD") verdict.addresses.splice(1);
    send();
  }

  private async onUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = this.absoluteTarget(req, ["http:", "ws:"]);
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const port = effectivePort(target);
    const verdict = await this.check(target.hostname, port);
    if (!("addresses" in verdict)) {
      if (verdict.blocked) this.record({ kind: "upgrade", host: target.hostname, port, url: target.href, reason: verdict.reason });
      client.end(`HTTP/1.1 ${verdict.status} Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    let upstream: Socket;
    try {
      upstream = await this.dial(verdict.addresses, port);
    } catch {
      client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    this.countAllowed();
    this.track(upstream);
    // Replay the upgrade request in origin form; Connection/Upgrade must survive here (they are the point).
    const lines = [`${req.method ?? "GET"} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? "";
      if (name.toLowerCase().startsWith("proxy-")) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ""}`);
    }
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    splice(client, upstream, head);
  }
}

/**
 * The filtering proxy: a default listener (for the browser-wide --proxy-server flag) plus
 * per-render sessions. See the module comment for the policy.
 */
export class FilteringProxy {
  private readonly sessions = new Set<Listener>();
  /** Refused and allowed upstream connections, all listeners, since start. */
  readonly totals: ProxyTotals;

  private constructor(
    private readonly options: FilteringProxyOptions,
    /** The browser-wide listener: catches whatever runs outside a render's own context. */
    readonly main: ProxyListener,
    totals: ProxyTotals,
  ) {
    this.totals = totals;
  }

  /** Starts the proxy's default listener on `bindHost`:random. */
  static async start(options: FilteringProxyOptions): Promise<FilteringProxy> {
    const totals: ProxyTotals = { blocked: 0, allowed: 0 };
    const main = new Listener(options, totals);
    await main.listen();
    return new FilteringProxy(options, main, totals);
  }

  /** `http://host:port` of the default listener. */
  get url(): string {
    return this.main.url;
  }

  /** Opens a listener whose refusals belong to one render only. Close it when the render ends. */
  async openSession(overrides: SessionOptions = {}): Promise<ProxyListener> {
    const options = overrides.resolver ? { ...this.options, resolver: overrides.resolver } : this.options;
    const listener: Listener = new Listener(options, this.totals, () => this.sessions.delete(listener));
    this.sessions.add(listener);
    await listener.listen();
    return listener;
  }

  /** Closes every listener and connection. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
    await this.main.close();
  }
}

/** Chromium flags that make the proxy the only way out, loopback included. */
export function proxyLaunchArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    // Chromium bypasses proxies for loopback by default; `<-loopback>` removes that exception.
    "--proxy-bypass-list=<-loopback>",
    // WebRTC may otherwise send UDP directly; QUIC (UDP) would ignore an HTTP proxy.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-quic",
  ];
}

/** Joins two sockets both ways (after forwarding bytes the client already sent); either closing ends both. */
function splice(client: Duplex, upstream: Duplex, head: Buffer): void {
  if (head.length > 0) upstream.write(head);
  upstream.pipe(client);
  client.pipe(upstream);
  const cut = () => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on("close", cut);
  client.on("close", cut);
}
