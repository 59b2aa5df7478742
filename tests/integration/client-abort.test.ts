import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * A client that disconnects cancels its analysis: the link checks in flight are cut (their sockets
 * close at once, not after LINK_CHECK_TIMEOUT_MS), no further link is requested, and the request is
 * logged as aborted with status 499, not as a 200 or a 500.
 */

const HELD_LINKS = 12;
let site: http.Server;
let siteOrigin: string;
let server: RunningServer;
const heldRequests: http.IncomingMessage[] = [];
const heldClosed: Array<Promise<void>> = [];
let firstHeld: () => void;
const firstHeldSeen = new Promise<void>((resolve) => (firstHeld = resolve));

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === "/page") {
      const links = Array.from({ length: HELD_LINKS }, (_, n) => `<a href="/held/${n}">held ${n}</a>`).join(" ");
      res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><title>Held</title>${links}`);
      return;
    }
    if (req.url?.startsWith("/held/")) {
      // Never answered: only the checker giving up (or being cancelled) ends these requests.
      heldRequests.push(req);
      heldClosed.push(new Promise((resolve) => res.on("close", () => resolve())));
      firstHeld();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  server = await startServer({
    ALLOW_PRIVATE_HOSTS: new URL(siteOrigin).host,
    BOT_PROTECTION: "off",
    LOG_LEVEL: "info",
    // Far beyond this test's own timeout: a held check that ends here was cancelled, not timed out.
    LINK_CHECK_TIMEOUT_MS: "120000",
  });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

describe("client disconnect", () => {
  it("cancels the link checks of a URL-mode analysis and logs the request as aborted", async () => {
    const controller = new AbortController();
    const answer = fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Request-Id": "client-abort-1" },
      body: JSON.stringify({ url: `${siteOrigin}/page` }),
      signal: controller.signal,
    });
    answer.catch(() => undefined);
    await firstHeldSeen;
    controller.abort();

    // Every check in flight is cut when the client goes (the test's timeout is far below the checker's).
    await Promise.all(heldClosed);
    const inFlightWhenAborted = heldRequests.length;
    expect(inFlightWhenAborted).toBeGreaterThan(0);
    expect(inFlightWhenAborted).toBeLessThan(HELD_LINKS);

    const logLine = await waitForLogLine(
      server,
      (entry) => entry.requestId === "client-abort-1" && entry.msg === "request",
    );
    expect(logLine).toMatchObject({ status: 499, aborted: true, path: "/api/demo/analyze" });
    expect(server.output()).not.toMatch(/"requestId":"client-abort-1"[^\n]*"msg":"unexpected error"/);
    // Nothing more was requested after the cancellation.
    expect(heldRequests.length).toBe(inFlightWhenAborted);
  }, 60_000);
});

async function waitForLogLine(
  running: RunningServer,
  match: (entry: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    for (const line of running.output().split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (match(entry)) return entry;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
