import http from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

/**
 * The saved real pages of a corpus directory served over HTTP on 127.0.0.1, one page per path
 * (`/<file>`), for URL-mode runs on real markup without the internet. Their scripts, styles and links
 * point at the live web, which is unreachable here: every such request fails (DNS), and the pages must
 * render without them. Any other path is a 404, so relative links get a real answer from the link checker.
 */
export interface CorpusSite {
  origin: string;
  port: number;
  /** The ALLOW_PRIVATE_HOSTS entry for this site. */
  allowEntry: string;
  /** The page files served, sorted by name. */
  files: string[];
  url(file: string): string;
  close(): Promise<void>;
}

export async function startCorpusSite(dir: string, options: { port?: number } = {}): Promise<CorpusSite> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort();
  const pages = new Map(files.map((file) => [`/${file}`, readFileSync(path.join(dir, file))]));
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://corpus").pathname;
    const body = pages.get(decodeURIComponent(pathname));
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.byteLength });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    allowEntry: `127.0.0.1:${port}`,
    files,
    url: (file) => `${origin}/${encodeURIComponent(file)}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
