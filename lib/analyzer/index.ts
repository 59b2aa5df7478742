import type { Config } from "@/lib/config";
import type { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown";
import { runUrlAnalysis } from "./analyze-url";
import { createRenderer, type Renderer } from "./render/renderer";
import { RobotsTxtCache } from "./robots/robots-txt";
import { roundTimings } from "./timings";
import type { PasteBodyRules } from "./worker/paste-body";
import type { RenderPriority } from "./render/queue";
import type { PrintOptions } from "./render/print";
import type { AnalysisResult, AnalyzedLink, DomainGroups, GoogleRender, LinkStats, PageReport } from "./types";
import { runGoogleView } from "./google-view";
import { AnalyzerPool, poolOptionsFrom, type JobTiming } from "./worker/pool";

/**
 * The analyzer's front door: the only module route handlers, lib/api and the coming signed-in code
 * (audits, monitors, MCP) call. It owns the process-wide worker pool, browser and render queue as lazy
 * singletons with shutdown hooks, and takes its settings from the caller (read from Config once, at the
 * edge): nothing behind this door reads the environment.
 */

export type {
  AnalysisResult,
  AnalyzedLink,
  DomainGroups,
  GoogleRender,
  LinkSignals,
  LinkStats,
  LinkType,
  NoindexSource,
  PageReport,
  PageSignals,
  Region,
  RobotsTxtAnswer,
} from "./types";
export { parsePublicUrl } from "@/lib/net/url-policy";
/** The site of a hostname as domain groups and monitors compare them (registrable domain, or the host). */
export { siteOf } from "./links/classify";
/** One guarded request that is not a render (robots.txt, webhook deliveries): the network guard, redirects checked per hop, a deadline, a body cap. */
export { fetchPublic, type FetchPublicOptions, type FetchPublicOutcome } from "./fetch-public";
/** The network policy for a URL contacted later (webhook endpoints): the deny list and address policy when it is saved (BLOCKED_URL). */
export { assertPublicUrl, isAllowListedUrl, type PublicUrlSettings } from "./public-url";
/** Paste mode's `domain` rule (decisions.md): a bare hostname, lowercased, punycode; ApiError INVALID_REQUEST otherwise. */
export { normalizePasteHostname } from "./worker/paste-hostname";
export type { PasteBodyRules } from "./worker/paste-body";
export type { RenderPriority } from "./render/queue";
export type { EvidenceCamera, EvidenceShot } from "./screenshots/camera";

/** Every setting the analyzer uses; a Config satisfies it. */
export type AnalyzerSettings = Pick<
  Config,
  | "RENDER_TIMEOUT_MS"
  | "MAX_CONCURRENT_RENDERS"
  | "LINK_CHECK_MAX"
  | "LINK_CHECK_CONCURRENCY"
  | "LINK_CHECK_TIMEOUT_MS"
  | "ANALYSIS_TIMEOUT_MS"
  | "ANALYSIS_MAX_HEAP_MB"
  | "ANALYSIS_CLIENT_BUDGET_MS"
  | "ANALYSIS_JOBS_PER_CLIENT"
  | "ALLOW_PRIVATE_HOSTS"
  | "DENY_HOSTS"
  | "BROWSER_WS_ENDPOINT"
  | "PUPPETEER_EXECUTABLE_PATH"
>;

/** Per-call options of analyzeHtml and analyzeUrl. */
export interface AnalyzeOptions {
  settings: AnalyzerSettings;
  /** Carried into log lines. */
  requestId?: string;
  /** Who asked (lib/http/client-key.ts): the pool runs one job per client at a time and meters its worker time. Internal callers leave it out. */
  clientKey?: string;
  /** Cancels the work when the caller no longer wants the answer: a queued job leaves the line, a running one is stopped (worker, render, link checks). */
  signal?: AbortSignal;
}

/** Options of the signed-in analyses (saved audits, monitor checks): AnalyzeOptions plus what only they use. */
export interface InspectOptions extends AnalyzeOptions {
  /** The organization's domain groups, site → group name (build the keys with siteOf). */
  groups?: DomainGroups;
  /** URL mode: which internal and external links get their status checked (default all; the rest stay null). */
  checkLinks?: (link: AnalyzedLink) => boolean;
  /**
   * URL mode: compute the link and page signals of placement-verdict.md (`hidden` by a visibility pass in
   * the rendered page, `inRawHtml` from the navigation response body, robots.txt, cached per origin for
   * an hour). Off by default, so a caller that does not ask pays nothing. Paste mode always has `region`.
   */
  signals?: boolean;
  /**
   * URL mode with signals: the crawlers (robots.txt product tokens) whose access to the final URL
   * `page.crawlers` reports, from the same robots.txt reading as `robotsTxt`. Absent: `crawlers` is null.
   */
  crawlers?: readonly string[];
  /**
   * URL mode with signals: keep the rendered page open after the analysis and hand back its camera
   * (`PageReport.camera`) for evidence screenshots; the caller must release() it. Off by default.
   */
  evidence?: boolean;
  /**
   * URL mode: the render's place in line. `interactive` (default: someone waits for the answer) starts
   * before every waiting `background` render (scheduled monitor checks).
   */
  priority?: RenderPriority;
}

/** Paste-mode input: markup and the URL its links resolve against (`https://{domain}/`). */
export interface HtmlInput {
  html: string;
  pageUrl: string;
}

// Next.js compiles route code into chunks with their own module state, and the server entry is another
// bundle: a registered global symbol keeps "one pool, one browser per process" true across them.
const SINGLETONS_KEY = Symbol.for("linklens.analyzer");
interface Singletons {
  pool?: AnalyzerPool;
  renderer?: Renderer;
  robots?: RobotsTxtCache;
}

function singletons(): Singletons {
  const holder = globalThis as typeof globalThis & { [SINGLETONS_KEY]?: Singletons };
  holder[SINGLETONS_KEY] ??= {};
  return holder[SINGLETONS_KEY];
}

function pool(settings: AnalyzerSettings): AnalyzerPool {
  const shared = singletons();
  if (!shared.pool) {
    shared.pool = new AnalyzerPool(poolOptionsFrom(settings));
    onShutdown("analyzer-pool", closePool);
  }
  return shared.pool;
}

function renderer(settings: AnalyzerSettings): Renderer {
  const shared = singletons();
  if (!shared.renderer) {
    shared.renderer = createRenderer({ config: settings });
    onShutdown("browser", closeRenderer);
  }
  return shared.renderer;
}

/** robots.txt answers of this process, one fetch per origin per hour (robots/robots-txt.ts). */
function robotsCache(settings: AnalyzerSettings): RobotsTxtCache {
  const shared = singletons();
  shared.robots ??= new RobotsTxtCache({ settings });
  return shared.robots;
}

async function closePool(): Promise<void> {
  const shared = singletons();
  const current = shared.pool;
  shared.pool = undefined;
  await current?.close();
}

/** Closes the warm browser (kills the Chromium process group, so no orphan survives) and its proxy. */
async function closeRenderer(): Promise<void> {
  const shared = singletons();
  const current = shared.renderer;
  shared.renderer = undefined;
  await current?.close();
}

/**
 * Paste mode: captures and classifies every link of `input.html` in the worker pool (nothing is
 * fetched; httpStatus stays null).
 * @throws ApiError UNPROCESSABLE_PAGE (422) past the time or heap cap, RATE_LIMITED (429) when the pool is full.
 */
export async function analyzeHtml(input: HtmlInput, options: AnalyzeOptions): Promise<AnalysisResult> {
  return (await inspectHtml(input, options)).analysis;
}

/** Paste mode with the page's signals (title, meta noindex, canonical) and domain groups applied. */
export async function inspectHtml(input: HtmlInput, options: InspectOptions): Promise<PageReport> {
  const timing: JobTiming = { timings: {} };
  const { analysis, signals, linkSignals } = await pool(options.settings).analyze(
    { html: input.html, pageUrl: input.pageUrl, scripting: false, groups: options.groups },
    { clientKey: options.clientKey, lane: "paste", signal: options.signal, timing },
  );
  log.info(
    { requestId: options.requestId, stages: roundTimings(timing.timings), peakHeapMb: timing.peakHeapMb },
    "paste mode timings",
  );
  // Paste mode: nothing was rendered or fetched, so only what the markup itself says.
  return {
    analysis,
    page: {
      ...signals,
      httpStatus: null,
      finalUrl: null,
      noindexSource: signals.noindex ? "meta" : null,
      robotsTxt: null,
      crawlers: null,
      robotsTxtReadAt: null,
    },
    linkSignals,
    removedByScript: null,
    rawHtml: null,
    camera: null,
  };
}

/** What analyzePasteBody makes of a request body (worker/paste-body.ts says when the worker analyses it). */
export type PasteBodyOutcome =
  | {
      kind: "analysed";
      /** The answer (the AnalysisResult) as UTF-8 JSON, ready to send. */
      json: Uint8Array;
      /** The normalized domain the worker analysed with, the html's UTF-8 bytes, and the body with html emptied (for the caller's validation). */
      domain: string;
      htmlBytes: number;
      skeleton: Record<string, unknown>;
      stats: LinkStats;
    }
  | { kind: "refused"; body: unknown; htmlBytes: number | null }
  | { kind: "invalid-json" }
  | { kind: "too-deep" };

/**
 * Paste mode from a request body's raw bytes: the worker thread parses the body, analyses it and
 * encodes the answer, so the calling thread does no work proportional to the page (the bytes are
 * transferred: do not use them afterwards). A body that is not plainly a valid paste request comes
 * back for the caller's validation (worker/paste-body.ts).
 * @throws what analyzeHtml throws.
 */
export async function analyzePasteBody(
  body: Uint8Array,
  rules: PasteBodyRules,
  options: AnalyzeOptions,
): Promise<PasteBodyOutcome> {
  const timing: JobTiming = { timings: {} };
  const outcome = await pool(options.settings).analyzeBody(body, rules, {
    clientKey: options.clientKey,
    lane: "paste",
    signal: options.signal,
    timing,
  });
  if (outcome.kind === "analysed")
    log.info(
      { requestId: options.requestId, stages: roundTimings(timing.timings), peakHeapMb: timing.peakHeapMb },
      "paste mode timings",
    );
  const { ok: _ok, timing: _timing, ...rest } = outcome;
  return rest;
}

/**
 * The 429 a paste of `clientKey` would get from the worker pool right now (its share spent, or its
 * waiting line full), or null. The API asks before it reads a large body: a client that keeps sending
 * megabytes into a full line is refused without the server reading, copying and holding each body.
 */
export function pasteAdmissionRefusal(clientKey: string, settings: AnalyzerSettings): ApiError | null {
  return pool(settings).admissionRefusal(clientKey);
}

/**
 * URL mode: renders `url` (already accepted by parsePublicUrl) in the warm browser behind the network
 * guard, analyses the DOM and checks every internal and external link.
 * @throws ApiError BLOCKED_URL, BLOCKED_REDIRECT, UNPROCESSABLE_PAGE, UPSTREAM_ERROR, RATE_LIMITED
 *   (see render/renderer.ts).
 */
export async function analyzeUrl(url: URL, options: AnalyzeOptions): Promise<AnalysisResult> {
  return (await inspectUrl(url, options)).analysis;
}

/**
 * URL mode with the page's signals (HTTP status, noindex from meta or X-Robots-Tag, canonical, whether
 * the answer is a bot challenge), domain groups applied and, optionally, only some links checked.
 * Throws what analyzeUrl throws; an ApiError caused by the page's own status carries it as `upstreamStatus`.
 */
export async function inspectUrl(url: URL, options: InspectOptions): Promise<PageReport> {
  options.signal?.throwIfAborted();
  return runUrlAnalysis(url, {
    pool: pool(options.settings),
    renderer: renderer(options.settings),
    settings: options.settings,
    requestId: options.requestId,
    clientKey: options.clientKey,
    signal: options.signal,
    groups: options.groups,
    checkLinks: options.checkLinks,
    signals: options.signals ? { robots: robotsCache(options.settings), crawlers: options.crawlers } : undefined,
    priority: options.priority,
    evidence: options.evidence,
  });
}

/** Options of renderGoogleView: who asks, the render's place in line, and whether to keep its page for evidence. */
export interface GoogleViewOptions extends AnalyzeOptions {
  priority?: RenderPriority;
  /** Keep Googlebot's page open and hand back its camera (GoogleRender.camera); the caller must release() it. */
  evidence?: boolean;
  /** The clock renderedAt reads (tests inject time). */
  now?: () => Date;
}

/**
 * Google's view (google-view.md §2): renders `url` (accepted by parsePublicUrl) as Googlebot Smartphone —
 * its User-Agent in the header and navigator.userAgent, no HeadlessChrome in any header or hint, a 412×915
 * phone at DPR 2.625 with touch, grown to the document — in a fresh context behind the same network guard,
 * through the same render queue, and reads its links like every render's. Never throws for the page: a
 * refusal, a challenge, a page that is not HTML or a failed render is `unavailable`. Throws only when
 * `signal` aborts.
 */
export async function renderGoogleView(url: URL, options: GoogleViewOptions): Promise<GoogleRender> {
  options.signal?.throwIfAborted();
  return runGoogleView(url, {
    pool: pool(options.settings),
    renderer: renderer(options.settings),
    settings: options.settings,
    requestId: options.requestId,
    clientKey: options.clientKey,
    signal: options.signal,
    priority: options.priority,
    evidence: options.evidence,
    now: options.now,
  });
}

/**
 * Prints a document of ours (an evidence report, a scheduled report: trusted markup, images as data: URLs)
 * to A4 PDF in the browser URL mode already runs, scripts off and every request but data: refused: its
 * first page, or with `pages: "all"` every page; `priority: "background"` lets interactive work go first.
 * @throws ApiError UPSTREAM_ERROR when the browser cannot print it in time.
 */
export async function printPdf(
  html: string,
  options: { settings: AnalyzerSettings; timeoutMs?: number } & Pick<PrintOptions, "pages" | "priority">,
): Promise<Buffer> {
  return renderer(options.settings).print(html, {
    timeoutMs: options.timeoutMs ?? 20_000,
    pages: options.pages,
    priority: options.priority,
  });
}

/**
 * Starts the worker threads (jsdom, DOMPurify loaded) so the first analysis does not pay that start-up
 * inside its time cap. The server calls it once at start.
 */
export async function warmUpAnalyzer(settings: AnalyzerSettings): Promise<void> {
  await pool(settings).warmUp();
}

/** Closes the pool and the browser if they were started; safe to call twice. Also run by the shutdown hooks. */
export async function shutdownAnalyzer(): Promise<void> {
  await Promise.all([closePool(), closeRenderer()]);
}
