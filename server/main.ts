/**
 * The production server (`npm start`): Next's request handler behind a plain Node HTTP server, so that
 * - the rate-limit key comes from the socket address (next start only has a client-writable
 *   X-Forwarded-For), with TRUSTED_PROXY_HOPS for deployments behind proxies;
 * - every request has an X-Request-Id and one structured access-log line;
 * - malformed /api/ URLs still get a JSON Error body;
 * - SIGTERM drains in-flight requests, then closes the browser and the worker pool.
 */
import http from "node:http";
import next from "next";
import { OPERATIONS } from "@/lib/api/catalog";
import { toErrorBody } from "@/lib/http/error-body";
import { acceptRequestId } from "@/lib/http/request-id";
import { CLIENT_CLOSED_REQUEST } from "@/lib/http/response";
import { docsPageUrl, publicOrigin, type HeaderSource } from "@/lib/http/origin";
import { ApiError } from "@/lib/errors";
import { CLIENT_KEY_HEADER, TRUSTED_SERVER_FLAG } from "@/lib/http/client-key";
import { listenOrigin, parseConfig, type Config } from "@/lib/config";
import { log } from "@/lib/log";
import { warmUpAnalyzer } from "@/lib/analyzer";
import { clientKeyFor } from "@/lib/ratelimit";
import { runShutdownHooks } from "@/lib/shutdown";
import { prepareDatabase } from "@/lib/db/prepare";
import { startMailDelivery } from "@/lib/mail";
import { startWebhookDelivery } from "@/lib/webhooks";
import { startScheduler, type Scheduler } from "@/lib/monitor/scheduler";
import { TICK_TASKS } from "@/lib/monitor/tick-tasks";
import { scheduledReportsTask } from "@/lib/reports/task";
import { processRuntime } from "@/lib/db/runtime";
import { isShareExportPath, isSharePath, reportTokenOf, SHARE_PAGE_HEADERS } from "@/lib/shares/headers";
import { reportPageExists } from "@/lib/shares/report";
import { forceHeaders, forceStatus } from "./forced-headers";
import { reportEventLoopDelay } from "./event-loop";
import { redactConsole } from "./redacted-console";
import { stripScriptsFromHtml } from "./script-free-html";

// Before anything prints: a report's or a reset link's token never reaches the output (lib/secret-paths.ts).
redactConsole();

const SHUTDOWN_DEADLINE_MS = 25_000;

function startupConfig() {
  try {
    return parseConfig(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/** A Node request's headers as a HeaderSource (only single-valued headers count). */
function headerSource(req: http.IncomingMessage): HeaderSource {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      return typeof value === "string" ? value : null;
    },
  };
}

function sendError(
  res: http.ServerResponse,
  req: http.IncomingMessage,
  error: ApiError,
  requestId: string,
  config: Config,
): void {
  // Never the raw Host: a forged one would be reflected into the body (publicOrigin checks it strictly).
  const origin = publicOrigin(headerSource(req), config, listenOrigin(config));
  const { status, body, headers } = toErrorBody(error, docsPageUrl(origin));
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

/** Request headers that only mean something to Next's page router (RSC payloads, prefetch, actions). */
const PAGE_ROUTER_HEADERS = [
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-url",
  "next-action",
];

function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/api?");
}

/**
 * The request target in origin form (`/path?query`). Absolute form (`GET http://host/path`, which
 * HTTP/1.1 servers must accept) is reduced to its path: we are not a proxy, and Next answered it with
 * a 308 to that foreign host. Anything else (`*`, an authority) is null.
 */
function originForm(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/**
 * A complete HTTP/1.1 Error answer as raw bytes, for the places that have a socket and no response
 * object (parse errors, upgrades, CONNECT). Node's own answers there have empty bodies.
 */
function rawErrorResponse(status: number, error: ApiError, docsUrl: string): string {
  const { body, headers } = toErrorBody(error, docsUrl);
  const json = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? "Error"}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${acceptRequestId(null)}\r\n${extra}Connection: close\r\n\r\n${json}`
  );
}

/** Node's reasons for refusing a request before any handler runs, as status and Error. */
function clientErrorAnswer(code: string | undefined): { status: number; error: ApiError } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        error: new ApiError("INVALID_REQUEST", "The request headers are too large.", {
          hint: "Send fewer or shorter headers (cookies included).",
        }),
      };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, error: new ApiError("PAYLOAD_TOO_LARGE", "The request's chunk extensions are too large.") };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        error: new ApiError("INVALID_REQUEST", "The request took too long to arrive.", {
          hint: "Send the whole request promptly.",
        }),
      };
    default:
      return {
        status: 400,
        error: new ApiError("INVALID_REQUEST", "The request is not valid HTTP.", {
          hint: "Send a well-formed HTTP/1.1 request.",
        }),
      };
  }
}

/** Methods our route handlers answer; Next turns any other into an HTML-ish 400 or a text 500 (TRACE). */
const HANDLED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const READ_ONLY_PATHS = new Set([...OPERATIONS.filter((op) => op.method === "GET").map((op) => op.path), "/llms.txt"]);
/** POST-only paths: the analyzer, and the MCP endpoint (not a public operation, so not in the catalog). */
const POST_PATHS = new Set([...OPERATIONS.filter((op) => op.method === "POST").map((op) => op.path), "/mcp"]);

/** The Error answer for a method no route handles: 405 with Allow on a known route, else 404. */
function unhandledMethodError(url: string): ApiError {
  const path = url.split("?")[0] ?? "/";
  const allow = READ_ONLY_PATHS.has(path) ? "GET, HEAD, OPTIONS" : POST_PATHS.has(path) ? "POST" : null;
  if (allow)
    return new ApiError("METHOD_NOT_ALLOWED", `This method is not allowed here; use ${allow}.`, {
      hint: `Use ${allow}.`,
      headers: { Allow: allow },
    });
  return new ApiError("NOT_FOUND", "No public operation lives at this path.");
}

async function main(): Promise<void> {
  const config = startupConfig();
  const { PORT: port, HOSTNAME: hostname } = config;
  // For answers written before there is a request to read a host from: SITE_URL, else the listen address.
  const listenDocsPage = docsPageUrl(config.SITE_URL ? config.SITE_URL.replace(/\/+$/, "") : listenOrigin(config));
  (globalThis as Record<symbol, unknown>)[TRUSTED_SERVER_FLAG] = true;
  // Accounts: secret check, embedded-database lock and migrations, all before anything listens.
  const database = await prepareDatabase(config);
  startMailDelivery(config, database.db);
  // Webhook deliveries: this instance's own sender loop, apart from email and checks (lib/webhooks/sender.ts).
  startWebhookDelivery(config, database.db);
  // Scheduled monitor checks and the other periodic work (lib/monitor/scheduler.ts); off on web-only instances.
  // Scheduled reports sit on a floor above the scheduler, so their task joins the list here.
  // Public analyses in flight in this process: scheduled checks wait for them before starting.
  let publicAnalyses = 0;
  const scheduler: Scheduler | null =
    config.MONITOR_SCHEDULER === "on"
      ? await startScheduler({
          database,
          config,
          tasks: [...TICK_TASKS, scheduledReportsTask()],
          yieldTo: () => publicAnalyses > 0,
        })
      : null;

  const app = next({ dev: false, hostname, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();

  let inFlight = 0;
  let shuttingDown = false;
  const eventLoop = reportEventLoopDelay();

  const server = http.createServer((req, res) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const requestId = acceptRequestId(typeof given === "string" ? given : null);
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
    eventLoop.request();
    const publicAnalysis = req.method === "POST" && /^\/(api\/demo\/analyze|mcp)\/?(\?|$)/.test(req.url ?? "");
    if (publicAnalysis) publicAnalyses += 1;
    res.on("close", () => {
      inFlight -= 1;
      if (publicAnalysis) publicAnalyses -= 1;
      // Never the query; a token in the path is redacted by the logger itself (lib/log.ts).
      const path = (req.url ?? "/").split("?")[0];
      // Closed before the answer was fully written: the client went away, whatever status was set.
      const aborted = !res.writableFinished;
      const status = aborted ? CLIENT_CLOSED_REQUEST : res.statusCode;
      log.info(
        { requestId, method: req.method, path, status, aborted, durationMs: Math.round(performance.now() - started) },
        "request",
      );
    });
    if (shuttingDown) res.setHeader("Connection", "close");

    const target = originForm(req.url ?? "/");
    if (target === null) {
      // `OPTIONS *` asks about the server as a whole; any other method with `*` is a bad request.
      if (req.method === "OPTIONS" && req.url === "*") {
        res.writeHead(204, { Allow: "GET, HEAD, POST, OPTIONS" }).end();
        return;
      }
      sendError(
        res,
        req,
        new ApiError("INVALID_REQUEST", "The request target must be a path, such as /api/v1.", {
          hint: "Request a path: GET /api/v1 lists every operation.",
        }),
        requestId,
        config,
      );
      return;
    }
    req.url = target;
    const [rawPath = "/", query] = target.split(/\?(.*)/s);
    if (rawPath.includes("//")) {
      // Next answers repeated slashes with its own 308 (an HTML body, and `//host/` is a foreign URL).
      const collapsed = rawPath.replace(/\/{2,}/g, "/");
      if (isApiPath(collapsed)) {
        sendError(res, req, new ApiError("NOT_FOUND", "No public operation lives at this path."), requestId, config);
      } else {
        res.writeHead(308, { Location: query === undefined ? collapsed : `${collapsed}?${query}` }).end();
      }
      return;
    }
    const url = target;
    const isApi = isApiPath(url);
    // Client reports: never indexed, never a Referer, never cached, no script, whatever Next sends (lib/shares/headers.ts).
    if (isSharePath(rawPath)) {
      forceHeaders(res, SHARE_PAGE_HEADERS);
      if (!isShareExportPath(rawPath)) {
        // The HTML is filtered as it streams, so Next must not compress it first.
        delete req.headers["accept-encoding"];
        stripScriptsFromHtml(res);
      }
    }
    const reportToken = req.method === "GET" || req.method === "HEAD" ? reportTokenOf(rawPath) : null;
    // An RSC request header made Next redirect (307) even on API routes; those headers mean nothing there.
    if (isApi) for (const name of PAGE_ROUTER_HEADERS) delete req.headers[name];
    if (!HANDLED_METHODS.has(req.method ?? "")) {
      sendError(res, req, unhandledMethodError(url), requestId, config);
      return;
    }
    if (isApi && isOddApiPath(url)) {
      sendError(res, req, new ApiError("NOT_FOUND", "No public operation lives at this path."), requestId, config);
      return;
    }
    const run = () =>
      handle(req, res).catch((error: unknown) => {
        log.error({ requestId, err: error }, "request handler failed");
        if (!res.headersSent)
          sendError(res, req, new ApiError("INTERNAL_ERROR", "Something went wrong on our side."), requestId, config);
        else res.destroy();
      });
    if (reportToken === null) return void run();
    // A report that does not exist renders its "not available" view; its status must be 404 before Next
    // starts streaming, so it is decided here (a failed check leaves the status to Next).
    const pageParam = new URLSearchParams(query ?? "").getAll("page");
    reportPageExists(processRuntime(), reportToken, pageParam.length > 1 ? pageParam : (pageParam[0] ?? null))
      .then((exists) => !exists && forceStatus(res, 404))
      .catch((error: unknown) => log.warn({ requestId, err: error }, "report check failed"))
      .finally(() => void run());
  });

  // Shared with the route bundle through globalThis; warmed in the background so the first analysis
  // does not pay the workers' start-up inside its time cap.
  warmUpAnalyzer(config).catch((error: unknown) => log.warn({ err: error }, "analyzer warm-up failed"));

  // Node answers these itself with empty bodies; under /api/ (and everywhere) the answer is an Error body.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, error: apiError } = clientErrorAnswer(error.code);
    socket.end(rawErrorResponse(status, apiError, listenDocsPage));
  });
  server.on("checkExpectation", (req, res) => {
    const { body } = toErrorBody(
      new ApiError("INVALID_REQUEST", "Only Expect: 100-continue is supported.", { hint: "Drop the Expect header." }),
      listenDocsPage,
    );
    res
      .writeHead(417, { "Content-Type": "application/json; charset=utf-8", Connection: "close" })
      .end(JSON.stringify(body));
  });
  const refuseTunnel = (_req: http.IncomingMessage, socket: import("node:stream").Duplex) => {
    socket.on("error", () => socket.destroy());
    socket.end(
      rawErrorResponse(
        400,
        new ApiError("INVALID_REQUEST", "This server does not upgrade connections or tunnel.", {
          hint: "Use plain HTTPS requests; there is no WebSocket API.",
        }),
        listenDocsPage,
      ),
    );
  };
  server.on("upgrade", refuseTunnel);
  server.on("connect", refuseTunnel);

  server.keepAliveTimeout = 5_000;
  server.listen(port, hostname, () => {
    log.info({ port, hostname }, `LinkLens listening on ${listenOrigin(config)}`);
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
    // Before the hooks close the browser and the database: checks in flight are cancelled (their jobs
    // are retried, by another instance or after the restart) rather than recorded as page errors.
    await scheduler?.stop().catch((error: unknown) => log.warn({ err: error }, "scheduler stop failed"));
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
