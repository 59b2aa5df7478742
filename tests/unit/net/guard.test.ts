import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedDispatcher, isBlockedConnection } from "@/lib/net/guarded-dispatcher";
import { FilteringProxy } from "@/lib/net/filtering-proxy";
import { assertPublicHost, staticResolver, type Resolver } from "@/lib/net/resolve";
import { startCanary, type Canary } from "@/tests/helpers/canary";
import { codeOf } from "../../helpers/error-code";

let canary: Canary;
let origin: http.Server;
let originPort = 0;
let resolver: Resolver;

beforeAll(async () => {
  canary = await startCanary();
  origin = http.createServer((req, res) => res.end(`origin ${req.method} ${req.headers.host} ${req.url}`));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originPort = (origin.address() as AddressInfo).port;
  resolver = staticResolver(
    {
      "evil.test": ["127.0.0.2"],
      "mixed.test": ["93.184.215.14", "127.0.0.2"],
      "meta.test": ["169.254.169.254"],
      "v6.test": ["::1"],
      "public.test": ["93.184.215.14"],
      "site.test": ["127.0.0.1"],
    },
    async (hostname) => {
      throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    },
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => origin.close(() => resolve()));
  const hits = canary.hits();
  await canary.close();
  // The whole file's tripwire: nothing above may have reached a canary.
  expect(hits).toEqual([]);
});

describe("assertPublicHost", () => {
  it("blocks names that resolve to non-public addresses, any one of them", async () => {
    expect(await codeOf(assertPublicHost("evil.test", 443, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await codeOf(assertPublicHost("mixed.test", 443, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await codeOf(assertPublicHost("meta.test", 80, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await codeOf(assertPublicHost("v6.test", 80, [], { resolver }))).toBe("BLOCKED_URL");
  });

  it("checks IP literals without DNS and literal local names", async () => {
    expect(await codeOf(assertPublicHost("127.0.0.2", 80, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await codeOf(assertPublicHost("[::1]", 80, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await codeOf(assertPublicHost("localhost", 80, [], { resolver }))).toBe("BLOCKED_URL");
    expect(await assertPublicHost("8.8.8.8", 443, [], { resolver })).toEqual([{ address: "8.8.8.8", family: 4 }]);
  });

  it("returns the checked addresses of a public name", async () => {
    expect(await assertPublicHost("public.test", 443, [], { resolver })).toEqual([
      { address: "93.184.215.14", family: 4 },
    ]);
  });

  it("turns DNS failure into UPSTREAM_ERROR and a slow resolver into a timeout", async () => {
    expect(await codeOf(assertPublicHost("nowhere.test", 443, [], { resolver }))).toBe("UPSTREAM_ERROR");
    const slow: Resolver = () => new Promise(() => undefined);
    expect(await codeOf(assertPublicHost("slow.test", 443, [], { resolver: slow, dnsTimeoutMs: 50 }))).toBe(
      "UPSTREAM_ERROR",
    );
  });

  it("exempts allow-listed host:port only", async () => {
    expect(await assertPublicHost("site.test", 8080, ["site.test:8080"], { resolver })).toEqual([
      { address: "127.0.0.1", family: 4 },
    ]);
    expect(await codeOf(assertPublicHost("site.test", 8081, ["site.test:8080"], { resolver }))).toBe("BLOCKED_URL");
  });
});

describe("guarded dispatcher", () => {
  const allow = () => [`127.0.0.1:${originPort}`];

  it("fetches allow-listed hosts and refuses everything else at connect time", async () => {
    const dispatcher = createGuardedDispatcher({ allowPrivateHosts: allow(), resolver });
    try {
      const ok = await request(`http://127.0.0.1:${originPort}/x`, { dispatcher });
      expect(ok.statusCode).toBe(200);
      await ok.body.text();

      for (const target of [
        canary.origin,
        `http://evil.test:${canary.port}/`,
        `http://[::ffff:127.0.0.2]:${canary.port}/`,
        "http://evil.test/",
        "https://evil.test/",
        "http://mixed.test/",
      ]) {
        const error = await request(target, { dispatcher }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isBlockedConnection(error), `${target}: ${String(error)}`).toBe(true);
      }
    } finally {
      await dispatcher.close();
    }
  });

  it("re-checks DNS on every new connection (rebinding)", async () => {
    let answer = "93.184.215.14";
    const flipping: Resolver = async () => [{ address: answer, family: 4 }];
    const dispatcher = createGuardedDispatcher({ allowPrivateHosts: [], resolver: flipping, connectTimeoutMs: 200 });
    try {
      // First connection goes to a "public" address that does not answer here: a network error, not a block.
      const first = await request("http://rebind.test/", { dispatcher }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isBlockedConnection(first)).toBe(false);
      answer = "127.0.0.2";
      const second = await request("http://rebind.test/", { dispatcher }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isBlockedConnection(second)).toBe(true);
    } finally {
      await dispatcher.close();
    }
  });
});

describe("filtering proxy", () => {
  let proxy: FilteringProxy;
  let proxyPort = 0;

  beforeAll(async () => {
    proxy = await FilteringProxy.start({
      allowPrivateHosts: [`127.0.0.1:${originPort}`],
      resolver,
      connectTimeoutMs: 300,
    });
    proxyPort = Number(new URL(proxy.url).port);
  });
  afterAll(async () => {
    await proxy.close();
  });

  /** Sends raw bytes to the proxy and returns the first line of its answer. */
  function raw(payload: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: "127.0.0.1", port: proxyPort }, () => socket.write(payload));
      let data = "";
      socket.on("data", (chunk: Buffer) => {
        data += chunk.toString("latin1");
        if (data.includes("\r\n\r\n")) {
          socket.destroy();
          resolve(data.split("\r\n")[0] ?? "");
        }
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(data.split("\r\n")[0] ?? ""));
    });
  }

  it("forwards absolute-URI requests to allow-listed hosts", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: proxyPort,
        path: `http://127.0.0.1:${originPort}/hello?x=1`,
        headers: { host: `127.0.0.1:${originPort}` },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer).toBe(`origin GET 127.0.0.1:${originPort} /hello?x=1`);
  });

  it("tunnels CONNECT to allow-listed hosts", async () => {
    expect(await raw(`CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n\r\n`)).toBe(
      "HTTP/1.1 200 Connection Established",
    );
  });

  const blockedRequests = (port: () => number) => [
    `GET http://127.0.0.2:${port()}/ HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n`,
    `GET http://evil.test:${port()}/ HTTP/1.1\r\nHost: evil.test\r\n\r\n`,
    `GET http://evil.test/ HTTP/1.1\r\nHost: evil.test\r\n\r\n`,
    `GET http://2130706434:${port()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET http://[::ffff:127.0.0.2]:${port()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET http://localhost:${port()}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET ws://127.0.0.2:${port()}/ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    `GET http://127.0.0.2:${port()}/ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    `CONNECT 127.0.0.2:${port()} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT evil.test:443 HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT [::ffff:7f00:2]:${port()} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT 0x7f000002:${port()} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT mixed.test:443 HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT public.test:22 HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT 127.0.0.1:${originPort + 1} HTTP/1.1\r\nHost: x\r\n\r\n`,
  ];

  it("refuses every non-public target with 403 and records it", async () => {
    for (const payload of blockedRequests(() => canary.port)) {
      const line = await raw(payload);
      expect(line, payload).toMatch(/^HTTP\/1\.1 403/);
    }
    expect(proxy.main.wasHostBlocked("127.0.0.2", canary.port)).toBe(true);
    expect(proxy.main.wasHostBlocked("evil.test", 443)).toBe(true);
    expect(proxy.main.wasUrlBlocked(`http://evil.test:${canary.port}/`)).toBe(true);
  });

  it("answers 502 for DNS failure and unreachable upstreams, without blocking", async () => {
    expect(await raw(`GET http://nowhere.test/ HTTP/1.1\r\nHost: nowhere.test\r\n\r\n`)).toMatch(/^HTTP\/1\.1 502/);
    expect(await raw(`CONNECT nowhere.test:443 HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 502/);
    expect(proxy.main.wasHostBlocked("nowhere.test", 443)).toBe(false);
  });

  it("keeps a session's refusals apart from other listeners", async () => {
    const session = await proxy.openSession();
    try {
      expect(session.url).not.toBe(proxy.url);
      const line = await new Promise<string>((resolve, reject) => {
        const c = net.connect({ host: "127.0.0.1", port: session.port }, () =>
          c.write(`CONNECT meta.test:443 HTTP/1.1\r\n\r\n`),
        );
        c.on("data", (chunk: Buffer) => {
          resolve(chunk.toString().split("\r\n")[0] ?? "");
          c.destroy();
        });
        c.on("error", reject);
      });
      expect(line).toMatch(/403/);
      expect(session.wasHostBlocked("meta.test", 443)).toBe(true);
      expect(proxy.main.wasHostBlocked("meta.test", 443)).toBe(false);
    } finally {
      await session.close();
    }
  });
});

describe("filtering proxy and a broken upstream", () => {
  let proxy: FilteringProxy;
  let proxyPort = 0;
  let upstream: net.Server;
  let upstreamPort = 0;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    // A raw server, because Node's own HTTP server cannot be made to send a malformed status line.
    upstream = net.createServer((socket) => {
      socket.on("error", () => socket.destroy());
      socket.once("data", (chunk: Buffer) => {
        const path = chunk.toString("latin1").split(" ")[1] ?? "";
        const statusLine =
          path === "/control-char"
            ? "HTTP/1.1 200 O\x01K"
            : path === "/status-099"
              ? "HTTP/1.1 099 Early"
              : "HTTP/1.1 200 OK";
        socket.end(
          `${statusLine}\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`,
          "latin1",
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    proxy = await FilteringProxy.start({
      allowPrivateHosts: [`127.0.0.1:${upstreamPort}`],
      resolver,
      connectTimeoutMs: 300,
    });
    proxyPort = Number(new URL(proxy.url).port);
    process.on("uncaughtException", onUncaught);
  });
  afterAll(async () => {
    process.off("uncaughtException", onUncaught);
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  /** One proxied GET; the proxy must answer it (any status) rather than leave it hanging. */
  function get(path: string): Promise<{ status: number; proxyHeader: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: proxyPort,
        path: `http://127.0.0.1:${upstreamPort}${path}`,
        agent: false,
      });
      req.setTimeout(5_000, () => req.destroy(new Error(`no answer for ${path}`)));
      req.on("response", (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, proxyHeader: res.headers["x-linklens-proxy"] as string | undefined }),
        );
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("answers 502 at once for a status line Node cannot repeat, and never throws past the request", async () => {
    expect(await get("/control-char")).toEqual({ status: 502, proxyHeader: "error" });
    expect(await get("/status-099")).toEqual({ status: 502, proxyHeader: "error" });
    expect(await get("/fine")).toEqual({ status: 200, proxyHeader: undefined });
    expect(uncaught).toEqual([]);
  });
});
