import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAnalyzeSuccessSchema, ErrorSchema } from "../../lib/api/schemas";
import { browserMainPids } from "../../scripts/lib/processes";
import { BROWSER_UA, startServer, type RunningServer } from "../../scripts/lib/server-process";

/**
 * Fault injection against the production server: the browser killed mid-render, analysis jobs past
 * their time or heap cap, link targets that trickle or bomb, and an unusable temp directory. Every
 * fault gets a clean Error answer and the server keeps serving.
 */

let site: http.Server;
let origin: string;
let allowEntry: string;
let slowPageRequested = false;
// 64 MiB of zeros gzip to ~64 KiB: a checker that decompressed would choke.
const GZIP_BOMB = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));

beforeAll(async () => {
  site = http.createServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/slow-page") {
      // The page itself takes 3 s: long enough to kill the browser in the middle.
      slowPageRequested = true;
      setTimeout(() => {
        response.writeHead(200, { "Content-Type": "text/html" });
        response.end('<!doctype html><a href="/ok">ok</a>');
      }, 3_000);
      return;
    }
    if (url === "/ok" || url === "/") {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end('<!doctype html><a href="/trickle">trickle</a><a href="/bomb">bomb</a><a href="/ok">ok</a>');
      return;
    }
    if (url === "/trickle") {
      // One byte every 10 s, forever: the check must time out.
      response.writeHead(200, { "Content-Type": "text/html" });
      response.flushHeaders();
      const timer = setInterval(() => response.write("."), 10_000);
      response.on("close", () => clearInterval(timer));
      return;
    }
    if (url === "/bomb") {
      response.writeHead(200, {
        "Content-Type": "text/html",
        "Content-Encoding": "gzip",
        "Content-Length": String(GZIP_BOMB.length),
      });
      response.end(GZIP_BOMB);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowEntry = `127.0.0.1:${port}`;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

async function analyze(server: RunningServer, body: object) {
  const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as unknown };
}

describe("browser killed during a render", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      ALLOW_PRIVATE_HOSTS: allowEntry,
      RATE_LIMIT_PER_MINUTE: "1000",
      LINK_CHECK_TIMEOUT_MS: "1500",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers that request 502 and the next one 200", async () => {
    const pending = analyze(server, { url: `${origin}/slow-page` });
    // Kill only once the browser is navigating: the page request has reached the fixture site.
    for (let i = 0; i < 300 && !slowPageRequested; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slowPageRequested, "the browser requested the page").toBe(true);
    const killed = browserMainPids(server.process.pid as number);
    expect(killed.length, "the server launched a browser").toBeGreaterThan(0);
    for (const pid of killed) process.kill(pid, "SIGKILL");

    const during = await pending;
    expect(during.status, during.text).toBe(502);
    expect(ErrorSchema.parse(during.json).errorCode).toBe("UPSTREAM_ERROR");

    const next = await analyze(server, { url: `${origin}/ok` });
    expect(next.status, next.text).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200);
  });

  it("stops link checks of a trickling target and a gzip bomb at their caps", async () => {
    const started = Date.now();
    const result = await analyze(server, { url: `${origin}/ok` });
    expect(result.status, result.text).toBe(200);
    const body = DemoAnalyzeSuccessSchema.parse(result.json);
    const byHref = Object.fromEntries(body.links.map((link) => [link.href, link.httpStatus]));
    // Statuses come from the headers; bodies are never read (or decompressed).
    expect(byHref[`${origin}/bomb`]).toBe(200);
    expect(byHref[`${origin}/trickle`]).toBe(200);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("analysis jobs past their caps", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      RATE_LIMIT_PER_MINUTE: "1000",
      ANALYSIS_TIMEOUT_MS: "1000",
      ANALYSIS_MAX_HEAP_MB: "512",
      MAX_HTML_BYTES: "8000000",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers a job past its time cap 422 and keeps serving", async () => {
    const html = '<a href="/x">x</a>'.repeat(300_000);
    const result = await analyze(server, { html });
    expect(result.status, result.text.slice(0, 300)).toBe(422);
    expect(ErrorSchema.parse(result.json).errorCode).toBe("UNPROCESSABLE_PAGE");
    // The killed worker is replaced; the cap runs from when a worker starts a job, so the replacement's
    // start-up does not count against the next one.
    const small = await analyze(server, { html: '<a href="/y">y</a>' });
    expect(small.status, small.text).toBe(200);
  });
});

describe("analysis job past its heap cap", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      RATE_LIMIT_PER_MINUTE: "1000",
      ANALYSIS_TIMEOUT_MS: "60000",
      ANALYSIS_MAX_HEAP_MB: "48",
      MAX_HTML_BYTES: "8000000",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 422 when the worker runs out of heap, and the next job works", async () => {
    const html = `<div>${'<a href="/x" title="t">link text</a>'.repeat(180_000)}</div>`;
    const result = await analyze(server, { html });
    expect(result.status, result.text.slice(0, 300)).toBe(422);
    expect(ErrorSchema.parse(result.json).errorCode).toBe("UNPROCESSABLE_PAGE");
    const small = await analyze(server, { html: '<a href="/y">y</a>' });
    expect(small.status, small.text).toBe(200);
  });
});

describe("unusable temp directory", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // A regular file where the temp directory should be: nothing can be created under it.
    const notADirectory = path.join(os.tmpdir(), `linklens-not-a-dir-${process.pid}`);
    writeFileSync(notADirectory, "x");
    server = await startServer({
      TMPDIR: notADirectory,
      ALLOW_PRIVATE_HOSTS: allowEntry,
      RATE_LIMIT_PER_MINUTE: "1000",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers URL mode with a clear 502 instead of crashing, while paste mode keeps working", async () => {
    const url = await analyze(server, { url: `${origin}/ok` });
    expect(url.status, url.text).toBe(502);
    const error = ErrorSchema.parse(url.json);
    expect(error.errorCode).toBe("UPSTREAM_ERROR");
    expect(error.error).toMatch(/browser could not be started/i);
    const paste = await analyze(server, { html: '<a href="/y">y</a>' });
    expect(paste.status, paste.text).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });
});
