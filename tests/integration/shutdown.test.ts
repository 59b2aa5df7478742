import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAnalyzeSuccessSchema } from "../../lib/api/schemas";
import { descendants, isAlive } from "../../scripts/lib/processes";
import { BROWSER_UA, startServer } from "../../scripts/lib/server-process";

/**
 * Graceful shutdown: SIGTERM stops accepting, lets the in-flight analysis finish, closes the browser
 * and the worker pool, exits 0, and leaves no Chromium process behind.
 */

let site: http.Server;
let origin: string;
let allowEntry: string;

beforeAll(async () => {
  site = http.createServer((_request, response) => {
    setTimeout(() => {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end('<!doctype html><a href="https://example.org/">x</a>');
    }, 1_500);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowEntry = `127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

describe("SIGTERM", () => {
  it("finishes the in-flight analysis, exits 0 and leaves no Chromium behind", async () => {
    const server = await startServer({ ALLOW_PRIVATE_HOSTS: allowEntry, LOG_LEVEL: "info" });
    // Warm the browser so there is something to clean up.
    const warm = await fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA },
      body: JSON.stringify({ url: `${origin}/warm` }),
    });
    expect(warm.status).toBe(200);
    const children = descendants(server.process.pid as number);
    expect(children.some(({ cmdline }) => /chrom/i.test(cmdline))).toBe(true);

    const inFlight = fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA },
      body: JSON.stringify({ url: `${origin}/slow` }),
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exitCode = server.stop();

    const response = await inFlight;
    expect(response.status).toBe(200);
    DemoAnalyzeSuccessSchema.parse(await response.json());
    expect(await exitCode).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 500));
    const survivors = children.filter(({ pid }) => isAlive(pid));
    expect(survivors, JSON.stringify(survivors)).toEqual([]);
    expect(server.output()).toContain("shutdown complete");
    await expect(fetch(`${server.baseUrl}/api/v1/health`)).rejects.toThrow();
  });
});
