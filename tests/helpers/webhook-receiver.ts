import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";

/**
 * Real local webhook receivers for the delivery tests: one HTTP server on 127.0.0.1 whose paths each
 * behave one way (answer 2xx, 3xx, 4xx, 5xx, answer slowly, hang until the test releases them, stream an
 * endless body, close the connection, or answer as a service would — ./chat-receivers.ts judges a
 * request by a chat service's rules), recording every request with its headers, exact body, and when
 * it arrived and closed; and a TCP tripwire on a loopback address's port 443 that counts connections (a
 * delivery the guard must stop may never reach it).
 */

export interface ReceivedRequest {
  path: string;
  /** The query string, with its "?" ("" when none). */
  query: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  at: number;
  /** When its answer went out or the sender gave up on it (Date.now()); undefined while it is still open. */
  closedAt?: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export type Behavior =
  | ({ kind: "answer"; delayMs?: number } & Answer)
  | { kind: "respond"; with: (request: ReceivedRequest) => Answer }
  | { kind: "hang" }
  | { kind: "endless" }
  | { kind: "close" };

export interface WebhookReceiver {
  origin: string;
  port: number;
  /** The ALLOW_PRIVATE_HOSTS entry of this receiver. */
  allowEntry: string;
  url(path: string): string;
  /** How `path` answers from now on (default: 200 "ok"). */
  on(path: string, behavior: Behavior): void;
  /** Requests received, all paths, in arrival order. */
  received: ReceivedRequest[];
  to(path: string): ReceivedRequest[];
  /** Requests being answered right now, most at once since start (per path). */
  maxConcurrent(path: string): number;
  /** The most requests to any of `paths` open at one moment since start (from arrival until answered or given up). */
  mostOpenAtOnce(paths: readonly string[]): number;
  /** Answers every request hanging on `path` now with `status`, and answers later ones so too (a test ends a hang). */
  release(path: string, status?: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(host = "127.0.0.1"): Promise<WebhookReceiver> {
  const behaviors = new Map<string, Behavior>();
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const concurrent = new Map<string, { now: number; max: number }>();
  const hanging = new Map<string, Set<http.ServerResponse>>();
  const server = http.createServer((req, res) => {
    const { pathname: path, search: query } = new URL(req.url ?? "/", "http://receiver");
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      );
      const request: ReceivedRequest = {
        path,
        query,
        method: req.method ?? "",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(request);
      const count = concurrent.get(path) ?? { now: 0, max: 0 };
      count.now += 1;
      count.max = Math.max(count.max, count.now);
      concurrent.set(path, count);
      res.on("close", () => {
        count.now -= 1;
        request.closedAt = Date.now();
      });
      const behavior = behaviors.get(path) ?? { kind: "answer", status: 200, body: "ok" };
      if (behavior.kind === "hang") {
        const held = hanging.get(path) ?? new Set();
        hanging.set(path, held.add(res));
        res.on("close", () => held.delete(res));
        return;
      }
      if (behavior.kind === "close") return void req.socket.destroy();
      if (behavior.kind === "respond") {
        const answer = behavior.with(request);
        return void res
          .writeHead(answer.status, { "content-type": "text/plain", ...answer.headers })
          .end(answer.body ?? "");
      }
      if (behavior.kind === "endless") {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "x".repeat(16 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {
            /* fill the socket until it pushes back */
          }
        };
        res.on("drain", pump);
        pump();
        return;
      }
      const answer = () =>
        res.writeHead(behavior.status, { "content-type": "text/plain", ...behavior.headers }).end(behavior.body ?? "");
      if (behavior.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, behavior.delayMs);
        timers.add(timer);
      } else answer();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    port,
    allowEntry: `${host}:${port}`,
    url: (path) => `${origin}${path}`,
    on: (path, behavior) => void behaviors.set(path, behavior),
    received,
    to: (path) => received.filter((request) => request.path === path),
    maxConcurrent: (path) => concurrent.get(path)?.max ?? 0,
    mostOpenAtOnce: (paths) => {
      // Arrivals and closings in time order, a closing first at the same millisecond.
      const edges = received
        .filter((request) => paths.includes(request.path))
        .flatMap((request) => [
          { at: request.at, change: 1 },
          { at: request.closedAt ?? Number.POSITIVE_INFINITY, change: -1 },
        ])
        .sort((x, y) => x.at - y.at || x.change - y.change);
      let open = 0;
      let most = 0;
      for (const edge of edges) most = Math.max(most, (open += edge.change));
      return most;
    },
    release: (path, status = 200) => {
      behaviors.set(path, { kind: "answer", status, body: "ok" });
      for (const res of hanging.get(path) ?? []) res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Tripwire {
  host: string;
  connections(): number;
  close(): Promise<void>;
}

/**
 * A TCP listener on port 443 of a random loopback address (127.0.0.10–250; Linux routes all of 127/8 to
 * lo), counting connections. Needs the right to bind a low port (root, as in CI).
 */
export async function startTripwire(): Promise<Tripwire> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  for (let tries = 0; ; tries += 1) {
    const host = `127.0.0.${10 + Math.floor(Math.random() * 240)}`;
    const ok = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(443, host, () => resolve(true));
    });
    if (ok)
      return {
        host,
        connections: () => connections,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    if (tries > 20)
      throw new Error("no loopback address had port 443 free (is this process allowed to bind low ports?)");
  }
}
