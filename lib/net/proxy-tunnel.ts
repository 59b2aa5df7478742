import type { IncomingMessage } from "node:http";
import net, { type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { stripBrackets } from "@/lib/net/address-policy";
import type { ResolvedAddress } from "@/lib/net/resolve";
import type { UpstreamBook } from "@/lib/net/proxy-types";

/**
 * The filtering proxy's byte tunnels (CONNECT for https and wss, Upgrade for ws over http): dial the
 * addresses the policy already checked, never a name, and join the two sockets.
 */

/** Parses CONNECT's `host:port` (IPv6 in brackets) into the canonical URL.hostname form. */
export function parseAuthority(authority: string | undefined): { host: string; port: number } | null {
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

/** Dials the checked addresses in order; never resolves a name. */
function dial(addresses: ResolvedAddress[], port: number, timeoutMs: number): Promise<Socket> {
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

/** The upstream socket, or null after answering the client 502 (no checked address accepted). */
async function dialOrRefuse(
  client: Duplex,
  addresses: ResolvedAddress[],
  port: number,
  book: UpstreamBook,
): Promise<Socket | null> {
  try {
    return await dial(addresses, port, book.connectTimeoutMs);
  } catch {
    client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    return null;
  }
}

/** Answers an allowed CONNECT: a tunnel to the first checked address that accepts. */
export async function tunnelConnect(
  client: Duplex,
  head: Buffer,
  addresses: ResolvedAddress[],
  port: number,
  book: UpstreamBook,
): Promise<void> {
  const upstream = await dialOrRefuse(client, addresses, port, book);
  if (!upstream) return;
  if (client.destroyed) {
    upstream.destroy();
    return;
  }
  book.countAllowed();
  book.track(upstream);
  client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  splice(client, upstream, head);
}

/** Answers an allowed Upgrade (WebSocket over http): replays the request upstream, then joins the sockets. */
export async function tunnelUpgrade(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  target: URL,
  addresses: ResolvedAddress[],
  port: number,
  book: UpstreamBook,
): Promise<void> {
  const upstream = await dialOrRefuse(client, addresses, port, book);
  if (!upstream) return;
  book.countAllowed();
  book.track(upstream);
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
