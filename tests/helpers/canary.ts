import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A tripwire for the network guard: HTTP servers on loopback addresses other than the fixture
 * site's (127.0.0.2, 127.0.0.3; Linux routes the whole 127/8 to lo) that count every raw TCP
 * connection and every request. Whatever tests try, a canary must end with zero.
 *
 * When the process may bind low ports (root in CI containers), the canary also listens on :80 and
 * :443 of 127.0.0.2, so a host name that *resolves* to it passes the port rule and only the address
 * policy stands in the way.
 */

export interface CanaryListener {
  host: string;
  port: number;
  /** `http://host:port` (port omitted for 80). */
  origin: string;
}

export interface Canary {
  /** The main listener: 127.0.0.2 on a random port. */
  host: string;
  port: number;
  origin: string;
  /** true when 127.0.0.2:80 and :443 are also listening. */
  hasLowPorts: boolean;
  listeners: CanaryListener[];
  /** TCP connections accepted so far, all listeners. */
  connections(): number;
  /** HTTP requests received so far, all listeners. */
  requests(): number;
  /** What reached a canary, for the failure message. */
  hits(): string[];
  close(): Promise<void>;
}

async function listen(server: http.Server, host: string, port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const onError = () => resolve(null);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts the canary listeners. */
export async function startCanary(): Promise<Canary> {
  let connections = 0;
  let requests = 0;
  const hits: string[] = [];
  const servers: http.Server[] = [];
  const sockets = new Set<Socket>();
  const listeners: CanaryListener[] = [];

  const make = () => {
    const server = http.createServer((req, res) => {
      requests += 1;
      hits.push(`${req.method} ${req.headers.host ?? "?"}${req.url ?? ""}`);
      res.writeHead(200, { "content-type": "text/html" }).end("<a href='/canary-was-reached'>canary</a>");
    });
    server.on("connection", (socket: Socket) => {
      connections += 1;
      hits.push(`tcp ${socket.localAddress ?? "?"}:${socket.localPort ?? "?"} from ${socket.remoteAddress ?? "?"}`);
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    servers.push(server);
    return server;
  };

  const plan: Array<[string, number]> = [
    ["127.0.0.2", 0],
    ["127.0.0.3", 0],
    ["127.0.0.2", 80],
    ["127.0.0.2", 443],
  ];
  for (const [host, wanted] of plan) {
    const port = await listen(make(), host, wanted);
    if (port === null) {
      servers.pop();
      continue;
    }
    listeners.push({ host, port, origin: port === 80 ? `http://${host}` : `http://${host}:${port}` });
  }
  const main = listeners.find(
    (listener) => listener.host === "127.0.0.2" && listener.port !== 80 && listener.port !== 443,
  );
  if (!main) throw new Error("canary: could not bind 127.0.0.2");
  const hasLowPorts = listeners.some((l) => l.port === 80) && listeners.some((l) => l.port === 443);

  return {
    host: main.host,
    port: main.port,
    origin: main.origin,
    hasLowPorts,
    listeners,
    connections: () => connections,
    requests: () => requests,
    hits: () => [...hits],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
