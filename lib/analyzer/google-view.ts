import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { Config } from "@/lib/config";
import type { Resolver } from "@/lib/net/resolve";
import { analysisResolver } from "@/lib/net/resolve";
import { createEvidenceCamera } from "./screenshots/camera";
import type { Renderer } from "./render/renderer";
import type { RenderPriority } from "./render/queue";
import type { GoogleRender } from "./types";
import type { AnalyzerPool } from "./worker/pool";

/**
 * Google's view (google-view.md §2): the page rendered a second time as Googlebot Smartphone
 * (render/googlebot.ts: its User-Agent and client hints, a 412×915 phone at 2.625, touch, mobile, grown to
 * the document like every render), in a fresh context behind the same guard, timeouts, caps and settle
 * rules, and its DOM read by the same pipeline (shadow DOM flattened). Only what the comparison needs is
 * computed: the links' hrefs, noindex (meta or X-Robots-Tag) and whether it is a page at all; no link
 * checks, no raw HTML, no robots.txt.
 *
 * A refusal says nothing about Google (bot walls refuse a Googlebot user agent that does not come from
 * Google's addresses), so every way this render can fail is an answer, `unavailable`, never an error of
 * the caller; only the caller's own cancellation is thrown.
 */

export interface GoogleViewDeps {
  pool: AnalyzerPool;
  renderer: Renderer;
  settings: Pick<Config, "RENDER_TIMEOUT_MS">;
  requestId?: string;
  clientKey?: string;
  resolver?: Resolver;
  signal?: AbortSignal;
  priority?: RenderPriority;
  /** Keep Googlebot's page open and hand back its camera (evidence); the caller must release() it. */
  evidence?: boolean;
  /** When the render ran (injectable time). */
  now?: () => Date;
}

export async function runGoogleView(url: URL, deps: GoogleViewDeps): Promise<GoogleRender> {
  const now = deps.now ?? (() => new Date());
  const unavailable = (httpStatus: number | null, finalUrl: string | null = null): GoogleRender => ({
    status: "unavailable",
    httpStatus,
    finalUrl,
    noindex: null,
    links: null,
    renderedAt: now(),
    camera: null,
  });
  let rendered: Awaited<ReturnType<Renderer["render"]>>;
  try {
    rendered = await deps.renderer.render(url, {
      timeoutMs: deps.settings.RENDER_TIMEOUT_MS,
      signal: deps.signal,
      resolver: analysisResolver(deps.resolver),
      priority: deps.priority,
      agent: "googlebot",
      // The camera finds its link by the visibility pass's marks.
      signals: deps.evidence === true,
      keepPage: deps.evidence === true,
    });
  } catch (error) {
    deps.signal?.throwIfAborted();
    log.info(
      { requestId: deps.requestId, code: error instanceof ApiError ? error.code : "render_failed" },
      "google view unavailable",
    );
    return unavailable(error instanceof ApiError ? error.upstreamStatus : null);
  }
  const lease = rendered.lease;
  try {
    const { analysis, signals } = await deps.pool.analyze(
      {
        html: rendered.html,
        pageUrl: rendered.finalUrl,
        scripting: true,
        headerNofollow: rendered.headerNofollow,
        ...(rendered.hiddenMarker !== null ? { hiddenMarker: rendered.hiddenMarker } : {}),
      },
      { clientKey: deps.clientKey, lane: "url", signal: deps.signal },
    );
    const status = rendered.status;
    // A bot wall's page is not the page: its links say nothing about Google's view.
    if (status < 200 || status > 299 || signals.challenge || rendered.headerChallenge) {
      await lease?.close();
      return unavailable(status, rendered.finalUrl);
    }
    return {
      status: "ok",
      httpStatus: status,
      finalUrl: rendered.finalUrl,
      noindex: signals.noindex || rendered.headerNoindex,
      links: analysis.links,
      renderedAt: now(),
      camera: lease ? createEvidenceCamera(lease, analysis.links, rendered.hiddenMarker, rendered.shadow) : null,
    };
  } catch (error) {
    await lease?.close();
    deps.signal?.throwIfAborted();
    log.info({ requestId: deps.requestId, err: error }, "google view unavailable: its DOM could not be read");
    return unavailable(rendered.status, rendered.finalUrl);
  }
}
