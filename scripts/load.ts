/**
 * Load suite (`npm run test:load`; needs `npm run build` first). Loopback only, bounded in time.
 *
 * Phase A: the production server with the per-IP limit lifted; LOAD_CONNECTIONS (16) clients (one
 * address each, named in X-Forwarded-For, so the pool's per-client fairness sees 16 clients) send
 * paste-mode analyses of the real pages in ../shared/corpus/pages for LOAD_SECONDS (60) while a probe
 * calls GET /api/v1/health every 50 ms. Pages over MAX_HTML_BYTES (2 MiB) are left out of the mix —
 * they would only measure the 413 path — and are instead sent once each afterwards, expecting 413.
 * Fails on any 5xx, connection error or timeout (30 s), or a failed health call.
 *
 * Phase B: a second server with the default limit (10 per minute): 200 concurrent requests from one
 * client get exactly 190 limiter 429s (RATE_LIMITED, X-RateLimit-Remaining 0, Retry-After) and ten
 * admitted answers: 200, or the pool's own 429 for a client with one job running and four waiting.
 *
 * LOAD_SUMMARY_JSON=<file> also writes the figures as JSON (read by scripts/bench.ts).
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import autocannon, { type RequestParams } from "autocannon";
import { startServer, type RunningServer } from "@/scripts/lib/server-process";
import { loadCorpus, type CorpusPage } from "./lib/corpus";
import { loadAverage } from "./lib/machine";
import { percentile, ms, sleep } from "./lib/stats";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 16);
const MAX_HTML_BYTES = 2_097_152; // the server's default, which phase A does not change
const REQUEST_TIMEOUT_S = 30;
const HEALTH_INTERVAL_MS = 50;
const HEALTH_TIMEOUT_MS = 5_000;
const BURST = 200;
const WARM_UP_ROUNDS = 3;
const DEFAULT_LIMIT = 10;
const ANALYZE = "/api/demo/analyze";
const JSON_HEADERS = { "content-type": "application/json" };

// ---------------------------------------------------------------------------------------------
// Health probe

interface HealthFigures {
  calls: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

/** Calls the health route every HEALTH_INTERVAL_MS, one call at a time, until stopped. */
function startHealthProbe(baseUrl: string): { stop: () => Promise<HealthFigures> } {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      try {
        const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
        await response.arrayBuffer();
        if (response.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      const elapsed = performance.now() - start;
      latencies.push(elapsed);
      await sleep(Math.max(0, HEALTH_INTERVAL_MS - elapsed));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return {
        calls: latencies.length,
        failures,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: Math.max(...latencies),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Phase A: paste-mode load

export interface LoadFigures {
  seconds: number;
  connections: number;
  pages: number;
  requests: number;
  requestsPerSecond: number;
  mbPerSecond: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  health: HealthFigures;
  /** The load generator's own event-loop delay p99: high values would mean the probe, not the server, was slow. */
  clientLoopDelayP99: number;
  oversize: { sent: number; got413: number };
  serverErrorLogLines: number;
  loadAverage: { before: string; after: string };
}

/** The pages in a fixed pseudo-random order, so a run of any length sees a mix of sizes. */
function shuffled(pages: readonly CorpusPage[]): CorpusPage[] {
  let seed = 0x5eed;
  const random = (): number => {
    // mulberry32: tiny, seeded, good enough to deal cards; the order must repeat from run to run.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...pages];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as CorpusPage, order[i] as CorpusPage];
  }
  return order;
}

/**
 * Round-robin over the pages across all connections, so every client sends a realistic mix. Each
 * request also names one of CONNECTIONS client addresses in X-Forwarded-For (the server trusts one
 * proxy hop here), round-robin too: the pool is fair per client (one job running, four waiting, then
 * 429), so sixteen connections from one address would measure that cap instead of the analyzer.
 */
function pageCycler(corpus: readonly CorpusPage[]): (request: RequestParams) => RequestParams {
  const pages = shuffled(corpus);
  let next = 0;
  return (request) => {
    const page = pages[next % pages.length];
    const client = `198.51.100.${(next % CONNECTIONS) + 1}`;
    next += 1;
    return { ...request, headers: { ...request.headers, "x-forwarded-for": client }, body: page?.body };
  };
}

/** POSTs a prepared body to the analyzer and reads the answer to the end. */
async function post(baseUrl: string, body: Buffer | string, timeoutMs: number): Promise<Response> {
  // A view, not a copy: the DOM typings of fetch do not accept Node's Buffer type.
  const payload =
    typeof body === "string" ? body : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return fetch(`${baseUrl}${ANALYZE}`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: payload,
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/**
 * Small analyses before measuring, two at a time (one per worker thread): the first requests pay for
 * lazy route loading and the worker threads' start-up (loading jsdom takes seconds on a busy
 * machine). Sent all at once they would queue past ANALYSIS_TIMEOUT_MS, which counts queue time.
 * Not counted in the figures.
 */
async function warmUp(baseUrl: string, pages: readonly CorpusPage[]): Promise<void> {
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
    await Promise.all(
      pages.slice(0, 2).map(async (page) => {
        const response = await post(baseUrl, page.body, 60_000);
        await response.arrayBuffer();
      }),
    );
  }
}

async function sendOversize(baseUrl: string, pages: readonly CorpusPage[]): Promise<LoadFigures["oversize"]> {
  let got413 = 0;
  for (const page of pages) {
    const response = await post(baseUrl, page.body, 30_000);
    await response.arrayBuffer();
    if (response.status === 413) got413 += 1;
    else console.error(`  ${page.file} (${page.htmlBytes} bytes): expected 413, got ${response.status}`);
  }
  return { sent: pages.length, got413 };
}

/** Pino error (50) and fatal (60) lines the server logged during the run. */
function errorLogLines(server: RunningServer): string[] {
  return server
    .output()
    .split("\n")
    .filter((line) => /"level":(50|60)\b/.test(line));
}

async function phaseA(corpus: readonly CorpusPage[]): Promise<LoadFigures> {
  const pages = corpus.filter((page) => page.htmlBytes <= MAX_HTML_BYTES);
  const oversize = corpus.filter((page) => page.htmlBytes > MAX_HTML_BYTES);
  const before = loadAverage();
  // Lifted far beyond what 16 clients can send in the run, so every answer reflects the analyzer.
  // One trusted proxy hop: each request names its client in X-Forwarded-For (pageCycler).
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: "100000000", TRUSTED_PROXY_HOPS: "1" });
  try {
    await warmUp(server.baseUrl, pages);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const probe = startHealthProbe(server.baseUrl);
    const result = await autocannon({
      url: `${server.baseUrl}${ANALYZE}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: REQUEST_TIMEOUT_S,
      method: "POST",
      headers: JSON_HEADERS,
      requests: [{ setupRequest: pageCycler(pages) }],
    });
    const health = await probe.stop();
    loopDelay.disable();
    const oversizeResult = await sendOversize(server.baseUrl, oversize);
    const errorLines = errorLogLines(server);
    for (const line of errorLines.slice(0, 5)) console.error(`  server error log: ${line.slice(0, 400)}`);
    const statusCounts = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
    );
    const requests = Object.values(statusCounts).reduce((sum, count) => sum + count, 0);
    return {
      seconds: result.duration,
      connections: CONNECTIONS,
      pages: pages.length,
      requests,
      requestsPerSecond: requests / result.duration,
      mbPerSecond: result.throughput.total / result.duration / 1e6,
      latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      statusCounts,
      errors: result.errors,
      timeouts: result.timeouts,
      health,
      clientLoopDelayP99: loopDelay.percentile(99) / 1e6,
      oversize: oversizeResult,
      serverErrorLogLines: errorLines.length,
      loadAverage: { before, after: loadAverage() },
    };
  } finally {
    await server.stop();
  }
}

function printPhaseA(figures: LoadFigures): void {
  console.log(
    `\nPhase A: paste mode, ${figures.connections} connections, ${figures.seconds.toFixed(1)} s, ${figures.pages} corpus pages`,
  );
  console.log(
    `  requests ${figures.requests}, ${figures.requestsPerSecond.toFixed(1)} req/s, ${figures.mbPerSecond.toFixed(2)} MB/s received`,
  );
  const { p50, p90, p99, max } = figures.latency;
  console.log(`  latency p50 ${ms(p50)}, p90 ${ms(p90)}, p99 ${ms(p99)}, max ${ms(max)}`);
  console.log(
    `  status counts ${JSON.stringify(figures.statusCounts)}; connection errors ${figures.errors}, timeouts ${figures.timeouts}`,
  );
  const health = figures.health;
  console.log(
    `  health during load: ${health.calls} calls, ${health.failures} failed, p50 ${ms(health.p50)}, p99 ${ms(health.p99)}, max ${ms(health.max)}`,
  );
  console.log(`  load generator event-loop delay p99 ${ms(figures.clientLoopDelayP99)} (the probe shares its process)`);
  console.log(
    `  oversize pages (> ${MAX_HTML_BYTES} bytes, outside the mix): ${figures.oversize.got413}/${figures.oversize.sent} answered 413`,
  );
  console.log(
    `  server error log lines ${figures.serverErrorLogLines}; load average before ${figures.loadAverage.before}, after ${figures.loadAverage.after}`,
  );
}

function phaseAFailures(figures: LoadFigures): string[] {
  const failures: string[] = [];
  const fiveHundreds = Object.entries(figures.statusCounts).filter(([code]) => code.startsWith("5"));
  if (fiveHundreds.length > 0) failures.push(`5xx answers: ${JSON.stringify(Object.fromEntries(fiveHundreds))}`);
  if (figures.errors > 0 || figures.timeouts > 0)
    failures.push(`${figures.errors} connection errors, ${figures.timeouts} timeouts`);
  if (figures.requests === 0) failures.push("no request was answered");
  if (figures.health.failures > 0) failures.push(`${figures.health.failures} health calls failed`);
  if (figures.oversize.got413 !== figures.oversize.sent) failures.push("an oversize page did not get 413");
  return failures;
}

// ---------------------------------------------------------------------------------------------
// Phase B: default limits

export interface LimitFigures {
  sent: number;
  statusCounts: Record<string, number>;
  /** Answers whose rate-limit headers or body were not what decisions.md requires. */
  malformed: string[];
}

/** What is wrong with one analyzer answer's rate-limit headers and body (`kind` from answerKind); empty when right. */
function checkLimitAnswer(response: Response, body: string, kind: string): string[] {
  const problems: string[] = [];
  const header = (name: string): string | null => response.headers.get(name);
  const nowSeconds = Date.now() / 1000;
  if (header("x-ratelimit-limit") !== String(DEFAULT_LIMIT))
    problems.push(`X-RateLimit-Limit ${header("x-ratelimit-limit")}`);
  if (!/^\d+$/.test(header("x-ratelimit-remaining") ?? ""))
    problems.push(`X-RateLimit-Remaining ${header("x-ratelimit-remaining")}`);
  const reset = Number(header("x-ratelimit-reset"));
  // Unix seconds, at most one window (60 s) ahead; a second of slack for rounding.
  if (!Number.isInteger(reset) || reset < nowSeconds - 1 || reset > nowSeconds + 61)
    problems.push(`X-RateLimit-Reset ${header("x-ratelimit-reset")}`);
  if (response.status === 429) {
    const retryAfter = Number(header("retry-after"));
    if (!Number.isInteger(retryAfter) || retryAfter < 1 || retryAfter > 61)
      problems.push(`Retry-After ${header("retry-after")}`);
    if (!body.includes('"errorCode":"RATE_LIMITED"')) problems.push(`429 body ${body.slice(0, 200)}`);
    if (kind === "429 limit" && header("x-ratelimit-remaining") !== "0")
      problems.push(`limiter 429 with X-RateLimit-Remaining ${header("x-ratelimit-remaining")}`);
  }
  return problems;
}

/**
 * "200"; "429 limit" when the per-IP limiter refused (its message names the limit: see
 * app/api/demo/analyze/route.ts); "429 queue" when the limiter admitted the request but the pool's
 * per-client line was full (one job running, four waiting); otherwise the status.
 */
function answerKind(response: Response, body: string): string {
  if (response.status !== 429) return String(response.status);
  return body.includes("Too many requests: the limit is") ? "429 limit" : "429 queue";
}

async function phaseB(): Promise<LimitFigures> {
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: String(DEFAULT_LIMIT) });
  const statusCounts: Record<string, number> = {};
  const malformed: string[] = [];
  const body = JSON.stringify({
    html: '<a href="https://example.org/" rel="sponsored">Partner</a>',
    domain: "example.com",
  });
  try {
    // All at once from one client (one IP): the limiter must hold under concurrency, not just in sequence.
    await Promise.all(
      Array.from({ length: BURST }, async (_, index) => {
        try {
          const response = await post(server.baseUrl, body, 30_000);
          const text = await response.text();
          const kind = answerKind(response, text);
          statusCounts[kind] = (statusCounts[kind] ?? 0) + 1;
          const problems = checkLimitAnswer(response, text, kind);
          if (problems.length > 0) malformed.push(`#${index} ${response.status}: ${problems.join("; ")}`);
        } catch (error) {
          statusCounts.error = (statusCounts.error ?? 0) + 1;
          malformed.push(`#${index}: ${String(error)}`);
        }
      }),
    );
  } finally {
    await server.stop();
  }
  return { sent: BURST, statusCounts, malformed };
}

function printPhaseB(figures: LimitFigures): void {
  console.log(`\nPhase B: default limit (${DEFAULT_LIMIT}/min), ${figures.sent} concurrent requests from one client`);
  console.log(`  status counts ${JSON.stringify(figures.statusCounts)}; malformed answers ${figures.malformed.length}`);
  for (const line of figures.malformed.slice(0, 5)) console.error(`  ${line}`);
}

function phaseBFailures(figures: LimitFigures): string[] {
  const failures: string[] = [];
  // Exactly DEFAULT_LIMIT admitted: each either analysed or turned away by the pool's fairness.
  const { "200": ok = 0, "429 limit": limited = 0, "429 queue": queued = 0, ...other } = figures.statusCounts;
  if (limited !== BURST - DEFAULT_LIMIT || ok + queued !== DEFAULT_LIMIT || ok === 0 || Object.keys(other).length > 0) {
    failures.push(
      `expected ${BURST - DEFAULT_LIMIT} × "429 limit" and ${DEFAULT_LIMIT} admitted (200 or "429 queue"), got ${JSON.stringify(figures.statusCounts)}`,
    );
  }
  if (figures.malformed.length > 0)
    failures.push(`${figures.malformed.length} answers with wrong rate-limit headers or body`);
  return failures;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!existsSync(path.resolve(__dirname, "..", "dist", "server.cjs"))) {
    throw new Error("dist/server.cjs is missing: run `npm run build` first");
  }
  const corpus = loadCorpus();
  const a = await phaseA(corpus);
  printPhaseA(a);
  const b = await phaseB();
  printPhaseB(b);
  if (process.env.LOAD_SUMMARY_JSON)
    writeFileSync(process.env.LOAD_SUMMARY_JSON, JSON.stringify({ phaseA: a, phaseB: b }, null, 2));

  const failures = [...phaseAFailures(a).map((f) => `A: ${f}`), ...phaseBFailures(b).map((f) => `B: ${f}`)];
  console.log(failures.length === 0 ? "\nLOAD: PASS" : `\nLOAD: FAIL\n  ${failures.join("\n  ")}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
