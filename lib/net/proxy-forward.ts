import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { stripBrackets } from "@/lib/net/address-policy";
import type { ResolvedAddress } from "@/lib/net/resolve";
import type { UpstreamBook } from "@/lib/net/proxy-types";

/**
 * The filtering proxy's plain-HTTP forwarding: one absolute-URI request sent on to the addresses the
 * policy already checked (never a name), hop-by-hop headers dropped both ways.
 */

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

function forwardHeaders(req: IncomingMessage, target: URL): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = value;
  }
  headers.host = target.host;
  return headers;
}

/** Sends `req` to `target` at the checked addresses, in order, and streams the answer back to `res`. */
export function forwardHttp(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  port: number,
  checked: ResolvedAddress[],
  book: UpstreamBook,
): void {
  // Request bodies are streamed once; a retry on the next address only makes sense for bodiless requests.
  const addresses = req.method !== "GET" && req.method !== "HEAD" ? checked.slice(0, 1) : checked;
  let attemptIndex = 0;
  const send = () => {
    const entry = addresses[attemptIndex];
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
      headers: forwardHeaders(req, target),
      setHost: false,
      agent: false,
      timeout: book.connectTimeoutMs,
    });
    let connected = false;
    upstream.on("socket", (socket: Socket) => {
      book.track(socket);
      socket.once("connect", () => {
        connected = true;
        book.countAllowed();
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
          res.writeHead(502, "Bad Gateway", {
            "content-type": "text/plain",
            "x-linklens-proxy": "error",
            connection: "close",
          });
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
  send();
}
