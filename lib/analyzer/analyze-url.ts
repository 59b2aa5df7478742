import { NOT_CHECKED } from "@/lib/link-status";
import { log } from "@/lib/log";
import { checkKey, checkLinks } from "./links/check-links";
import { createEvidenceCamera } from "./screenshots/camera";
import type { PageLease } from "./render/lease";
import type { Renderer, RenderResult } from "./render/renderer";
import type { RenderPriority } from "./render/queue";
import { analysisResolver, type Resolver } from "@/lib/net/resolve";
import { RawLinksJob, withRawLinks } from "./links/raw-job";
import { ROBOTS_USER_AGENT, type RobotsTxtCache } from "./robots/robots-txt";
import { computeStats } from "./links/stats";
import { roundTimings } from "./timings";
import type { AnalyzedLink, DomainGroups, PageReport } from "./types";
import type { AnalyzerPool, JobTiming } from "./worker/pool";
import type { Config } from "@/lib/config";

/** What one URL-mode analysis needs: the shared pool and renderer, and the settings read once by the caller. */
export interface UrlAnalysisDeps {
  pool: AnalyzerPool;
  renderer: Renderer;
  settings: Pick<
    Config,
    | "RENDER_TIMEOUT_MS"
    | "LINK_CHECK_MAX"
    | "LINK_CHECK_CONCURRENCY"
    | "LINK_CHECK_TIMEOUT_MS"
    | "ALLOW_PRIVATE_HOSTS"
    | "DENY_HOSTS"
  >;
  requestId?: string;
  /** The client's key, for the pool's fairness (one running job per client). */
  clientKey?: string;
  /** DNS for this analysis (tests inject one); wrapped in a per-analysis cache either way. */
  resolver?: Resolver;
  /** Aborts the render and the link checks (the client went away). */
  signal?: AbortSignal;
  /** Signed-in analyses: the organization's domain groups (see AnalyzeDocumentInput.groups). */
  groups?: DomainGroups;
  /** Which internal and external links to check (default all); the others keep httpStatus null. A monitor checks only its tracked targets. */
  checkLinks?: (link: AnalyzedLink) => boolean;
  /**
   * Signed-in analyses: the link and page signals of placement-verdict.md (visibility pass, raw HTML,
   * robots.txt from this cache). Absent: none of it is computed, and the public answer's cost is unchanged.
   */
  signals?: { robots: RobotsTxtCache; crawlers?: readonly string[] };
  /** The render's place in line (lib/analyzer/render/queue.ts): scheduled checks are background. */
  priority?: RenderPriority;
  /** Signed-in checks: keep the rendered page open and hand back its camera (screenshots/camera.ts); needs signals. */
  evidence?: boolean;
}

function roundMs(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([key, ms]) => [key, Math.round(ms)]));
}

/**
 * URL mode: render the page behind the network guard, run the same pipeline as paste mode on the
 * rendered DOM (scripting on, so <noscript> content is not captured), then check every internal and
 * external link and fill in httpStatus and the broken count. Called through lib/analyzer/index.ts.
 */
export async function runUrlAnalysis(url: URL, deps: UrlAnalysisDeps): Promise<PageReport> {
  const started = performance.now();
  // One DNS answer per host for this analysis, shared by the render's proxy and the link checker.
  const resolver = analysisResolver(deps.resolver);
  const withSignals = deps.signals !== undefined;
  // With signals, the raw body's links are parsed while the page settles (links/raw-job.ts).
  const raw = withSignals ? new RawLinksJob(deps.pool, { clientKey: deps.clientKey, signal: deps.signal }) : null;
  // robots.txt of the requested URL's origin is fetched while the page renders: a slow one overlaps the
  // render instead of following it (the cache shares the fetch; the final URL's origin is asked after).
  const robotsStarted = performance.now();
  deps.signals?.robots.prefetch(url);
  let rendered: Awaited<ReturnType<Renderer["render"]>>;
  try {
    rendered = await deps.renderer.render(url, {
      timeoutMs: deps.settings.RENDER_TIMEOUT_MS,
      signal: deps.signal,
      resolver,
      signals: withSignals,
      onRawBody: raw?.listener,
      priority: deps.priority,
      keepPage: withSignals && deps.evidence === true,
    });
  } catch (error) {
    raw?.cancel();
    throw error;
  }
  // The kept page is closed on every way out but the one that hands its camera to the caller.
  const lease = rendered.lease;
  try {
    return await analyseRendered(url, deps, rendered, raw, { started, robotsStarted }, resolver, lease);
  } catch (error) {
    await lease?.close();
    throw error;
  }
}

async function analyseRendered(
  url: URL,
  deps: UrlAnalysisDeps,
  rendered: RenderResult,
  raw: RawLinksJob | null,
  { started, robotsStarted }: { started: number; robotsStarted: number },
  resolver: Resolver,
  lease: PageLease | null,
): Promise<PageReport> {
  const renderedAt = performance.now();
  // Googlebot's answer (and the crawlers' asked for) for the final URL: from the fetch started beside the
  // render when the origin is the requested one, else (a redirect to another origin) fetched now, beside
  // the parse and the link checks.
  const finalUrl = URL.parse(rendered.finalUrl);
  const crawlers = deps.signals?.crawlers ?? [];
  let robotsMs = 0;
  const robots =
    deps.signals && finalUrl
      ? deps.signals.robots
          .answers(finalUrl, [ROBOTS_USER_AGENT, ...crawlers])
          .finally(() => (robotsMs = performance.now() - robotsStarted))
      : null;
  const timing: JobTiming = { timings: {} };
  const report = await deps.pool
    .analyze(
      {
        html: rendered.html,
        pageUrl: rendered.finalUrl,
        scripting: true,
        headerNofollow: rendered.headerNofollow,
        groups: deps.groups,
        ...(rendered.hiddenMarker !== null ? { hiddenMarker: rendered.hiddenMarker } : {}),
      },
      // The URL lane: a render already paid for must not wait behind pastes.
      { clientKey: deps.clientKey, lane: "url", signal: deps.signal, timing },
    )
    .catch((error: unknown) => {
      raw?.cancel();
      throw error;
    });
  const { analysis, signals } = report;
  const analysedAt = performance.now();

  const wanted = deps.checkLinks ?? (() => true);
  const checkable = analysis.links
    .filter((link) => link.linkType !== "ignored" && wanted(link))
    .map((link) => link.href);
  const statuses = await checkLinks(checkable, { config: deps.settings, signal: deps.signal, resolver });
  const robotsRead = robots ? await robots : null;
  const fromRaw = withRawLinks(analysis.links, report.linkSignals, raw ? await raw.hrefs() : null);
  // checkLinks answers what it has when its batch ends; a cancelled analysis has no answer to give.
  deps.signal?.throwIfAborted();
  const links = analysis.links.map((link) =>
    link.linkType === "ignored" ? link : { ...link, httpStatus: statuses.get(checkKey(link.href)) ?? NOT_CHECKED },
  );
  log.info(
    {
      requestId: deps.requestId,
      renderMs: Math.round(renderedAt - started),
      parseMs: Math.round(analysedAt - renderedAt),
      checkMs: Math.round(performance.now() - analysedAt),
      checked: statuses.size,
      renderedBytes: rendered.html.length,
      stages: roundTimings({
        ...rendered.timings,
        ...timing.timings,
        linkChecks: performance.now() - analysedAt,
        ...(robots ? { robotsTxt: robotsMs } : {}),
        ...(raw ? { rawHtml: raw.ms } : {}),
      }),
      peakHeapMb: timing.peakHeapMb,
      settle: rendered.settled && { ended: rendered.settled.ended, waitedFor: roundMs(rendered.settled.waitedFor) },
      grown: rendered.grown && {
        height: rendered.grown.height,
        ended: rendered.grown.settled?.ended ?? null,
        waitedFor: rendered.grown.settled && roundMs(rendered.grown.settled.waitedFor),
      },
    },
    "url mode timings",
  );
  return {
    analysis: { ...analysis, links, stats: computeStats(links) },
    page: {
      title: signals.title,
      noindex: signals.noindex || rendered.headerNoindex,
      noindexSource: rendered.headerNoindex ? "header" : signals.noindex ? "meta" : null,
      canonicalUrl: signals.canonicalUrl,
      httpStatus: rendered.status,
      challenge: signals.challenge || rendered.headerChallenge,
      finalUrl: rendered.finalUrl,
      robotsTxt: robotsRead?.answers[0] ?? null,
      crawlers:
        robotsRead && crawlers.length > 0
          ? Object.fromEntries(crawlers.map((agent, index) => [agent, robotsRead.answers[index + 1] ?? "unavailable"]))
          : null,
      robotsTxtReadAt: robotsRead?.readAt ?? null,
    },
    linkSignals: fromRaw.linkSignals,
    removedByScript: fromRaw.removedByScript,
    rawHtml: rendered.rawBody,
    camera: lease ? createEvidenceCamera(lease, links, rendered.hiddenMarker, rendered.shadow) : null,
  };
}
