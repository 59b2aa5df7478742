/**
 * The production server (`npm start`): Next's request handler behind a plain Node HTTP server, so that
 * - the rate-limit key comes from the socket address (next start only has a client-writable
 *   X-Forwarded-For), with TRUSTED_PROXY_HOPS for deployments behind proxies;
 * - every request has an X-Request-Id and one structured access-log line;
 * - malformed /api/ URLs still get a JSON Error body;
 * - SIGTERM drains in-flight requests, then closes the browser and the worker pool.
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import next from "next";
import { OPERATIONS } from "../api/catalog";
import { toErrorBody, ApiError } from "../api/errors";
import { CLIENT_KEY_HEADER, TRUSTED_SERVER_FLAG } from "../api/client-key";
import { parseConfig } from "../config";
import { log } from "../log";
import { getAnalyzerPool } from "../analyzer/worker-pool";
import { clientKeyFor } from "../ratelimit";
import { runShutdownHooks } from "../shutdown";
import { prepareDatabase } from "../db/prepare";
import { startMailDelivery } from "../mail";

const SHUTDOWN_DEADLINE_MS = 25_000;
const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

function startupConfig() {
  try {
    return parseConfig(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

function sendError(res: http.ServerResponse, req: http.IncomingMessage, error: ApiError, requestId: string): void {
  const host = req.headers.host ?? "localhost";
  const { status, body, headers } = toErrorBody(error, `http://${host}/docs#errors`);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId, ...headers });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
}

/**
 * True for /api/ paths Next would not route as written: undecodable percent-encoding (Next answers an
 * HTML 400) and dot segments or backslashes (Next normalizes them away and may answer a page).
 */
function isOddApiPath(url: string): boolean {
  const rawPath = url.split("?")[0] ?? "";
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return true;
  }
  return /(^|\/)\.{1,2}(\/|$)|\\|\0/.test(path) || /%2f|%5c/i.test(rawPath);
}

/** Methods our route handlers answer; Next turns any other into an HTML-ish 400 or a text 500 (TRACE). */
const HANDLED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const READ_ONLY_PATHS = new Set([...OPERATIONS.filter((op) => op.method === "GET").map((op) => op.path), "/llms.txt"]);
const POST_PATHS = new Set(OPERATIONS.filter((op) => op.method === "POST").map((op) => op.path));

/** The Error answer for a method no route handles: 405 with Allow on a known route, else 404. */
function unhandledMethodError(url: string): ApiError {
  const path = url.split("?")[0] ?? "/";
  const allow = READ_ONLY_PATHS.has(path) ? "GET, HEAD, OPTIONS" : POST_PATHS.has(path) ? "POST" : null;
  if (allow) return new ApiError("METHOD_NOT_ALLOWED", `This method is not allowed here; use ${allow}.`, { hint: `Use ${allow}.`, headers: { Allow: allow } });
  return new ApiError("NOT_FOUND", "No public operation lives at this path.");
}

async function main(): Promise<void> {
  const config = startupConfig();
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOSTNAME ?? "0.0.0.0";
  (globalThis as Record<symbol, unknown>)[TRUSTED_SERVER_FLAG] = true;
  // Accounts: secret check, embedded-database lock and migrations, all before anything listens.
  startMailDelivery(config, (await prepareDatabase(config)).db);

  const app = next({ dev: false, hostname, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();

  let inFlight = 0;
  let shuttingDown = false;

  const server = http.createServer((req, res) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    req.headers["x-request-id"] = requestId;
    res.setHeader("X-Request-Id", requestId);

    // Never trust a client's copy of our internal header.
    delete req.headers[CLIENT_KEY_HEADER];
    req.headers[CLIENT_KEY_HEADER] = clientKeyFor({
      socketAddress: req.socket.remoteAddress,
      forwardedFor: typeof req.headers["x-forwarded-for"] === "string" ? req.headers["x-forwarded-for"] : null,
      trustedProxyHops: config.TRUSTED_PROXY_HOPS,
    });

    inFlight += 1;
    res.on("close", () => {
      inFlight -= 1;
      const path = (req.url ?? "/").split("?")[0];
      log.info({ requestId, method: req.method, path, status: res.statusCode, durationMs: Math.round(performance.now() - started) }, "request");
    });
    if (shuttingDown) res.setHeader("Connection", "close");

    const url = req.url ?? "/";
    const isApi = url.startsWith("/api/") || url === "/api" || url.startsWith("/api?");
    if (!HANDLED_METHODS.has(req.method ?? "")) {
      sendError(res, req, unhandledMethodError(url), requestId);
      return;
    }
    if (isApi && isOddApiPath(url)) {
      sendError(res, req, new ApiError("NOT_FOUND", "No public operation lives at this path."), requestId);
      return;
    }
    handle(req, res).catch((error: unknown) => {
      log.error({ requestId, err: error }, "request handler failed");
      if (!res.headersSent) sendError(res, req, new ApiError("INTERNAL_ERROR", "Something went wrong on our side."), requestId);
      else res.destroy();
    });
  });

  // Shared with the route bundle through globalThis; warmed in the background so the first analysis
  // does not pay the workers' start-up inside its time cap.
  const pool = getAnalyzerPool({ timeoutMs: config.ANALYSIS_TIMEOUT_MS, maxHeapMb: config.ANALYSIS_MAX_HEAP_MB });
  pool.warmUp().catch((error: unknown) => log.warn({ err: error }, "analyzer warm-up failed"));

  server.keepAliveTimeout = 5_000;
  server.listen(port, hostname, () => {
    log.info({ port, hostname }, `LinkLens listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
  });

  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal, inFlight }, "shutting down: draining in-flight requests");
    server.close();
    server.closeIdleConnections();
    const deadline = Date.now() + SHUTDOWN_DEADLINE_MS;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    server.closeAllConnections();
    const failures = await runShutdownHooks(5_000);
    if (failures.length > 0) log.warn({ failures }, "shutdown hooks failed");
    log.info({ leftInFlight: inFlight }, "shutdown complete");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error("LinkLens failed to start:", error instanceof Error ? error.message : String(error));
  process.exit(1);
});
