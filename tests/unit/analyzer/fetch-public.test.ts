import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchPublic, type FetchPublicOptions } from "@/lib/analyzer";

/** A real local server with one behaviour per path; only its own host:port is allow-listed. */
let server: http.Server;
let origin: string;
let allow: string[];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/ok") return response.end("hello");
    if (path === "/echo") {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => response.end(`${request.method} ${request.headers["x-test"] ?? ""} ${body}`));
      return;
    }
    if (path.startsWith("/hop/")) {
      const left = Number(path.slice(5));
      response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : "/ok" });
      return response.end();
    }
    if (path === "/to-gopher") return response.writeHead(301, { location: "gopher://example.com/" }).end();
    if (path === "/to-private") return response.writeHead(302, { location: "http://127.0.0.2:9/secret" }).end();
    if (path === "/endless") {
      response.writeHead(200);
      const chunk = "x".repeat(16 * 1024);
      const pump = () => {
        while (response.write(chunk)) {
          /* fill the socket */
        }
      };
      response.on("drain", pump);
      pump();
      return;
    }
    if (path === "/hang") return; // never answers
    response.writeHead(404).end("nope");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  allow = [`127.0.0.1:${port}`];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options = (over: Partial<FetchPublicOptions> = {}): FetchPublicOptions => ({
  settings: { ALLOW_PRIVATE_HOSTS: allow },
  maxRedirects: 5,
  timeoutMs: 3_000,
  maxBodyBytes: 1024,
  ...over,
});

describe("fetchPublic", () => {
  it("answers a response with its body, a POST with its headers and body", async () => {
    const got = await fetchPublic(new URL(`${origin}/ok`), options());
    expect(got).toMatchObject({ kind: "response", status: 200, truncated: false });
    expect(got.kind === "response" && got.body.toString()).toBe("hello");
    const posted = await fetchPublic(
      new URL(`${origin}/echo`),
      options({ method: "POST", headers: { "x-test": "yes" }, body: "payload" }),
    );
    expect(posted.kind === "response" && posted.body.toString()).toBe("POST yes payload");
  });

  it("follows redirects within the limit, and stops past it", async () => {
    const got = await fetchPublic(new URL(`${origin}/hop/3`), options());
    expect(got).toMatchObject({ kind: "response", status: 200, url: `${origin}/ok` });
    expect(await fetchPublic(new URL(`${origin}/hop/9`), options())).toMatchObject({ kind: "too_many_redirects" });
  });

  it("with maxRedirects 0 a 3xx is the answer (never followed)", async () => {
    expect(await fetchPublic(new URL(`${origin}/hop/0`), options({ maxRedirects: 0 }))).toMatchObject({
      kind: "response",
      status: 302,
    });
  });

  it("refuses a redirect to another scheme or to a private address, and a private address that is not allow-listed", async () => {
    expect(await fetchPublic(new URL(`${origin}/to-gopher`), options())).toMatchObject({
      kind: "blocked",
      redirected: true,
    });
    expect(await fetchPublic(new URL(`${origin}/to-private`), options())).toMatchObject({
      kind: "blocked",
      redirected: true,
    });
    expect(
      await fetchPublic(new URL(`${origin}/ok`), options({ settings: { ALLOW_PRIVATE_HOSTS: [] } })),
    ).toMatchObject({ kind: "blocked", redirected: false });
    expect(await fetchPublic(new URL("ftp://example.com/"), options())).toMatchObject({ kind: "blocked" });
  });

  it("reads an endless body up to the cap, and gives up on a server that never answers", async () => {
    const endless = await fetchPublic(new URL(`${origin}/endless`), options({ maxBodyBytes: 1024 }));
    expect(endless).toMatchObject({ kind: "response", status: 200, truncated: true });
    expect(endless.kind === "response" && endless.body.length).toBe(1024);
    const started = Date.now();
    expect(await fetchPublic(new URL(`${origin}/hang`), options({ timeoutMs: 300 }))).toMatchObject({
      kind: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("an unreachable host is unreachable, not blocked", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const got = await fetchPublic(
      new URL(`http://127.0.0.1:${port}/`),
      options({ settings: { ALLOW_PRIVATE_HOSTS: [`127.0.0.1:${port}`] } }),
    );
    expect(got.kind).toBe("unreachable");
  });
});
