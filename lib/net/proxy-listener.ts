import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { GuardError, resolveChecked, type ResolvedAddress } from "@/lib/net/resolve";
import { effectivePort, hostPortKey, isAllowListed, PUBLIC_PORTS } from "@/lib/net/url-policy";
import { forwardHttp } from "@/lib/net/proxy-forward";
import { parseAuthority, tunnelConnect, tunnelUpgrade } from "@/lib/net/proxy-tunnel";
import type {
  BlockedAttempt,
  FilteringProxyOptions,
  ProxyListener,
  ProxyTotals,
  UpstreamBook,
} from "@/lib/net/proxy-types";

/**
 * One listening port of the filtering proxy (see filtering-proxy.ts for the policy): it takes the
 * browser's CONNECT, absolute-URI and Upgrade requests, applies the policy to each target, records what
 * it refused, and hands what it allowed to a forwarder (proxy-tunnel.ts, proxy-forward.ts) together with
 * the addresses it checked.
 */

/** The policy's answer for one target: the addresses to dial, or why not (HTTP status + reason). */
type Verdict = { addresses: ResolvedAddress[] } | { status: number; reason: string; blocked: boolean };

function isLoopback(address: string): boolean {
  const bare = address.replace(/^::ffff:/, "");
  return bare === "::1" || bare.startsWith("127.");
}

/** Absolute-URI target of a proxied plain-HTTP request, or null. */
function absoluteTarget(req: IncomingMessage, schemes: readonly string[]): URL | null {
  try {
    const url = new URL(req.url ?? "");
    return schemes.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

export class Listener implements ProxyListener, UpstreamBook {
  readonly blocked: BlockedAttempt[] = [];
  allowedCount = 0;
  blockedCount = 0;
  readonly connectTimeoutMs: number;
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
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
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
    this.server.on(
      "connect",
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head),
    );
    this.server.on(
      "upgrade",
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket, head),
    );
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

  countAllowed(): void {
    this.allowedCount += 1;
    this.totals.allowed += 1;
  }

  track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    // An error on one connection must never take the process down.
    socket.on("error", () => socket.destroy());
  }

  private acceptsClient(remote: string): boolean {
    if (this.options.clientFilter) return this.options.clientFilter(remote);
    const bindHost = this.options.bindHost ?? "127.0.0.1";
    return isLoopback(bindHost) ? isLoopback(remote) : true;
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

  /** Applies the policy to one target. */
  private async check(host: string, port: number): Promise<Verdict> {
    if (!PUBLIC_PORTS.has(port) && !isAllowListed(host, port, this.options.allowPrivateHosts)) {
      return { status: 403, reason: `port ${port} is not allowed`, blocked: true };
    }
    try {
      return { addresses: await resolveChecked(host, port, this.options) };
    } catch (error) {
      if (error instanceof GuardError && error.kind === "blocked")
        return { status: 403, reason: error.message, blocked: true };
      return { status: 502, reason: error instanceof Error ? error.message : "DNS failure", blocked: false };
    }
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
      if (verdict.blocked)
        this.record({ kind: "connect", host: target.host, port: target.port, reason: verdict.reason });
      client.end(
        `HTTP/1.1 ${verdict.status} ${verdict.blocked ? "Forbidden" : "Bad Gateway"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    await tunnelConnect(client, head, verdict.addresses, target.port, this);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = absoluteTarget(req, ["http:"]);
    if (!target) {
      res
        .writeHead(400, { "content-type": "text/plain", connection: "close" })
        .end("LinkLens proxy: absolute http URL required");
      return;
    }
    const port = effectivePort(target);
    const verdict = await this.check(target.hostname, port);
    if (!("addresses" in verdict)) {
      if (verdict.blocked)
        this.record({ kind: "http", host: target.hostname, port, url: target.href, reason: verdict.reason });
      res.writeHead(verdict.status, {
        "content-type": "text/plain",
        "x-linklens-proxy": verdict.blocked ? "blocked" : "error",
      });
      res.end(
        verdict.blocked ? "Blocked by LinkLens: not a public address." : "LinkLens proxy: upstream lookup failed.",
      );
      return;
    }
    forwardHttp(req, res, target, port, verdict.addresses, this);
  }

  private async onUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = absoluteTarget(req, ["http:", "ws:"]);
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const port = effectivePort(target);
    const verdict = await this.check(target.hostname, port);
    if (!("addresses" in verdict)) {
      if (verdict.blocked)
        this.record({ kind: "upgrade", host: target.hostname, port, url: target.href, reason: verdict.reason });
      client.end(`HTTP/1.1 ${verdict.status} Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    await tunnelUpgrade(req, client, head, target, verdict.addresses, port, this);
  }
}
