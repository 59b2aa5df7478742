import type { BrowserContext, Page, Target } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import type { Config } from "@/lib/config";
import { BrowserManager } from "@/lib/analyzer/browser";
import { guardPage, throwIfBlocked, type NavigationState } from "@/lib/analyzer/render-guard";
import { RenderQueue } from "@/lib/analyzer/render-queue";
import { headersSayChallenge } from "@/lib/analyzer/challenge";
import { robotsHeaderNofollow, robotsHeaderNoindex } from "@/lib/analyzer/robots";
import { installActivityTracker, settle, trackNetwork, type NetworkTracker } from "@/lib/analyzer/settle";
import { browserUserAgent } from "@/lib/analyzer/user-agent";
import { FilteringProxy, type ProxyListener } from "@/lib/net/filtering-proxy";
import { assertPublicHost, systemResolver, type Resolver } from "@/lib/net/resolve";
import { effectivePort } from "@/lib/net/url-policy";
import { withTimeout } from "@/lib/timeout";
import { Stopwatch, type StageTimings } from "@/lib/analyzer/timings";

/**
 * URL mode's renderer: loads a public page in a fresh incognito context of the warm browser, lets
 * its scripts run, and returns the serialized DOM.
 *
 * Defence in depth, outermost first:
 *  1. the URL's host is resolved and checked before anything is sent (BLOCKED_URL);
 *  2. the context's only way out is a filtering-proxy session (lib/net/filtering-proxy.ts), which
 *     checks every connection of every kind (documents, redirects, subresources, workers, WebSocket,
 *     beacons, prefetch) at connect time and pins the checked IP;
 *  3. request interception (render-guard.ts) aborts non-http(s) and literally-private requests early,
 *     and stops the page from navigating itself away once its document has arrived.
 * Layer 2 is the one that must hold on its own; layer 3 only makes failures faster and clearer.
 * After `load`, settle.ts waits for network and DOM to go quiet; robots.ts reads X-Robots-Tag.
 */

/** What Renderer.render returns. */
export interface RenderResult {
  /** The document's URL after redirects (document.URL at serialization time). */
  finalUrl: string;
  /** The serialized DOM after scripts ran (page.content()). */
  html: string;
  /** The main response's X-Robots-Tag said nofollow or none (for us, googlebot or everyone). */
  headerNofollow: boolean;
  /** The main response's X-Robots-Tag said noindex or none (same scoping). */
  headerNoindex: boolean;
  /** The main response's headers say it is a bot challenge (Cloudflare's cf-mitigated). */
  headerChallenge: boolean;
  /** HTTP status of the main document's final response. */
  status: number;
  /** Where the render's time went (queue, browser, context, navigation, settle, capture). */
  timings: StageTimings;
}

/** Per-call options of Renderer.render. */
export interface RenderOptions {
  /** Default: RENDER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Aborts the render (client went away); the context is closed at once. */
  signal?: AbortSignal;
  /** DNS for this render (one analysis's cache, shared with its link checks); default: the renderer's. */
  resolver?: Resolver;
}

/** The settings a renderer needs, picked from Config once by the caller (never read from the environment here). */
export type RenderSettings = Pick<Config, "RENDER_TIMEOUT_MS" | "MAX_CONCURRENT_RENDERS" | "ALLOW_PRIVATE_HOSTS" | "BROWSER_WS_ENDPOINT" | "PUPPETEER_EXECUTABLE_PATH" | "DENY_HOSTS">;

/** Options of createRenderer. */
export interface RendererOptions {
  config: RenderSettings;
  /** DNS for the pre-check and the proxy (tests inject one). */
  resolver?: Resolver;
  /** Where the filtering proxy listens, and the host the browser uses to reach it (remote browsers). */
  proxyBindHost?: string;
  proxyAdvertiseHost?: string;
  /** Serialized-DOM cap in bytes (default 10 MiB): above it the page is UNPROCESSABLE_PAGE. */
  maxHtmlBytes?: number;
  /** How long past the timeout a render may run before the watchdog kills it (default 5,000 ms). */
  watchdogGraceMs?: number;
  /** After load: quiet time for network and DOM (default 500 ms), and the cap on that wait (default 5,000 ms). */
  settleQuietMs?: number;
  settleMaxMs?: number;
  /** Waiting renders allowed beyond MAX_CONCURRENT_RENDERS (default 2× that). */
  maxQueued?: number;
  /** Layer 3 (request interception) on/off; tests turn it off to prove the proxy holds alone. Default on. */
  interceptionGuard?: boolean;
  /** Skip images, media and fonts for speed (default on). Links never depend on them. */
  skipHeavyResources?: boolean;
  /** Extra Chromium flags (tests). */
  extraArgs?: string[];
  /** Keep the next render's context and page ready (default on); off makes every render create its own on demand. */
  sparePage?: boolean;
}

/** A renderer: a filtering proxy, a warm browser and a render queue. */
export interface Renderer {
  /** Renders `url`; see createRenderer for what it throws. */
  render(url: URL, options?: RenderOptions): Promise<RenderResult>;
  /** Closes the browser (no orphaned Chromium) and the proxy. */
  close(): Promise<void>;
  /** The proxy, once started (tests inspect its listeners). */
  readonly proxy: FilteringProxy | null;
  /** The browser manager, once started. */
  readonly browser: BrowserManager | null;
  /** The queue (tests and metrics). */
  readonly queue: RenderQueue;
  /** Renders that used a spare page made ready in advance (tests and metrics). */
  readonly sparesUsed: number;
}

const DEFAULT_MAX_HTML_BYTES = 10 * 1024 * 1024;
const HTML_TYPES = ["text/html", "application/xhtml+xml"];

function isHtmlContentType(value: string | undefined): boolean | null {
  if (!value) return null;
  const type = value.split(";")[0]?.trim().toLowerCase() ?? "";
  return HTML_TYPES.includes(type);
}

function upstream(message: string, cause?: unknown): ApiError {
  return new ApiError("UPSTREAM_ERROR", message, { cause });
}

function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** Shared by a render and its watchdog. */
interface RenderHandle {
  context: BrowserContext | null;
  clock: Stopwatch;
  timings: StageTimings;
  /** Called once the page's context exists: the page's own clock starts then (see withWatchdog). */
  ready?: () => void;
}

/** One render's own incognito context and proxy session, and (once opened) its guarded page. */
interface PreparedPage {
  context: BrowserContext;
  session: ProxyListener;
  page: { page: Page; network: NetworkTracker; state: NavigationState } | null;
  /** Points the session's DNS at the render's resolver (undefined: the renderer's default). */
  bindResolver(resolver: Resolver | undefined): void;
}
type PreparedPageReady = PreparedPage & { page: NonNullable<PreparedPage["page"]> };

/** How long the renderer must be idle before it makes the next render's page (see scheduleSpare). */
const SPARE_IDLE_MS = 150;
/** How long a render waits for a spare that is being made before making its own page. */
const SPARE_WAIT_MS = 5_000;

/** How long starting (or reconnecting) the browser may take before the watchdog gives up, ms. */
const STARTUP_ALLOWANCE_MS = 30_000;

class PuppeteerRenderer implements Renderer {
  readonly queue: RenderQueue;
  sparesUsed = 0;
  proxy: FilteringProxy | null = null;
  browser: BrowserManager | null = null;
  private starting: Promise<{ proxy: FilteringProxy; browser: BrowserManager }> | null = null;
  /** The next render's context and page, made after the previous render (see renderOnce). */
  private spare: PreparedPage | null = null;
  /** Settles when the spare being made is ready (or failed). */
  private spareInProgress: Promise<void> | null = null;
  private readonly spareDisabled: boolean;
  private closing = false;
  private userAgent: string | null = null;
  private readonly config: RenderSettings;

  constructor(private readonly options: RendererOptions) {
    this.config = options.config;
    this.spareDisabled = options.sparePage === false;
    const concurrency = this.config.MAX_CONCURRENT_RENDERS;
    this.queue = new RenderQueue(concurrency, options.maxQueued ?? concurrency * 2);
  }

  private ensureStarted(): Promise<{ proxy: FilteringProxy; browser: BrowserManager }> {
    this.starting ??= (async () => {
      const proxy = await FilteringProxy.start({
        allowPrivateHosts: this.config.ALLOW_PRIVATE_HOSTS,
        denyHosts: this.config.DENY_HOSTS,
        resolver: this.options.resolver,
        bindHost: this.options.proxyBindHost,
        advertiseHost: this.options.proxyAdvertiseHost,
      });
      const browser = new BrowserManager({ config: this.config, proxyUrl: proxy.url, extraArgs: this.options.extraArgs });
      this.proxy = proxy;
      this.browser = browser;
      return { proxy, browser };
    })();
    this.starting.catch(() => (this.starting = null));
    return this.starting;
  }

  async render(url: URL, options: RenderOptions = {}): Promise<RenderResult> {
    const timeoutMs = options.timeoutMs ?? this.config.RENDER_TIMEOUT_MS;
    const timings: StageTimings = {};
    const clock = new Stopwatch(timings);
    const release = await this.queue.acquire(options.signal);
    clock.lap("renderQueue");
    try {
      return await this.withWatchdog(url, timeoutMs, { clock, timings, context: null }, options.signal, options.resolver ?? this.options.resolver);
    } finally {
      release();
      this.scheduleSpare();
    }
  }

  /**
   * Runs one render under a hard deadline of timeout + grace, counted from when its context exists.
   * Past it, the render's context is closed; if even that hangs, the browser is killed (the next
   * render starts a fresh one). Starting a cold browser is not the page's time: on a busy machine a
   * launch took most of a 5 s deadline and a blocked redirect came back as 502 "did not answer in
   * time". Until the context exists the watchdog allows the launch its own timeout instead.
   */
  private async withWatchdog(url: URL, timeoutMs: number, handle: RenderHandle, signal?: AbortSignal, resolver?: Resolver): Promise<RenderResult> {
    signal?.throwIfAborted();
    const grace = this.options.watchdogGraceMs ?? 5_000;
    const job = this.renderOnce(url, timeoutMs, handle, resolver);
    job.catch(() => undefined);

    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      const expire = () => reject(upstream("The page took too long to render."));
      timer = setTimeout(expire, STARTUP_ALLOWANCE_MS + grace);
      handle.ready = () => {
        clearTimeout(timer);
        timer = setTimeout(expire, timeoutMs + grace);
      };
      onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : upstream("The render was cancelled."));
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([job, stop]);
    } catch (error) {
      // The watchdog or the caller stopped us (or the render failed): either way its context must go.
      await this.forceStop(handle);
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Closes a render's context, bounded; a browser that cannot even do that is killed. */
  private async forceStop(handle: RenderHandle): Promise<void> {
    const context = handle.context;
    if (!context) return;
    const closed = await withTimeout(
      context.close().then(
        () => true,
        () => true,
      ),
      2_000,
    );
    if (!closed) await this.browser?.kill();
  }

  private async renderOnce(url: URL, timeoutMs: number, handle: RenderHandle, resolver: Resolver | undefined): Promise<RenderResult> {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new ApiError("INVALID_URL", "Only http and https URLs can be analysed.");
    // Layer 1: a blocked first host answers BLOCKED_URL before the browser sees anything.
    await assertPublicHost(url.hostname, effectivePort(url), this.config.ALLOW_PRIVATE_HOSTS, { resolver, denyHosts: this.config.DENY_HOSTS });

    let started: { proxy: FilteringProxy; browser: BrowserManager };
    try {
      started = await this.ensureStarted();
    } catch (error) {
      throw upstream("The page renderer could not start.", error);
    }
    // A cold launch (or a relaunch after a crash) is not the page's time: it happens before the clock starts.
    try {
      await started.browser.get();
    } catch (first) {
      await started.browser.kill();
      try {
        await started.browser.get();
      } catch (error) {
        throw upstream("The browser could not be started.", error ?? first);
      }
    }
    handle.clock.lap("browserStart");
    // A spare being made right now is waited for rather than raced: two renderer processes starting at
    // once is what slows a busy machine most. Like the launch, this is before the page's clock starts.
    if (!this.spare && this.spareInProgress) await withTimeout(this.spareInProgress, SPARE_WAIT_MS);
    // A spare page made ready after an earlier render skips context and page creation (a new renderer
    // process: most of a render's fixed cost). It is as fresh as one made now: its own incognito
    // context and proxy session, never used for another page, with DNS bound to this analysis only now.
    let prepared = await this.takeSpare();
    try {
      prepared ??= await this.prepareContext(started);
      prepared.bindResolver(resolver);
      handle.context = prepared.context;
      handle.clock.lap("context");
    } catch (error) {
      if (prepared) void this.discard(prepared);
      if (error instanceof ApiError) throw error;
      throw upstream("The browser could not be started.", error);
    }
    const { context, session } = prepared;
    try {
      const deadline = Date.now() + timeoutMs;
      handle.ready?.();
      try {
        const ready = await this.preparePage(prepared);
        return await this.renderInContext(ready, url, deadline, handle);
      } finally {
        handle.context = null;
        handle.clock.lap("capture");
        await withTimeout(context.close().catch(() => undefined), 3_000);
        handle.clock.lap("contextClose");
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw upstream("The browser failed while rendering the page.", error);
    } finally {
      await session.close();
    }
  }

  /**
   * A new incognito context behind a new proxy session of its own. DNS is bound later
   * (bindResolver): until then the session refuses every connection.
   */
  private async prepareContext(started: { proxy: FilteringProxy; browser: BrowserManager }): Promise<PreparedPage> {
    let bound: Resolver | null = null;
    const defaultResolver = this.options.resolver ?? systemResolver;
    const session = await started.proxy.openSession({
      resolver: (hostname) => (bound ? bound(hostname) : Promise.reject(new Error("This render has not started yet."))),
    });
    try {
      const contextOptions = {
        // Layer 2, per context: remote browsers have no launch flags of ours, and a session of
        // our own tells this render's refusals apart from every other render's.
        proxyServer: session.url,
        proxyBypassList: ["<-loopback>"],
        downloadBehavior: { policy: "deny" as const },
      };
      let context: BrowserContext;
      try {
        context = await (await started.browser.get()).createBrowserContext(contextOptions);
      } catch (first) {
        // The warm browser may have died a moment ago without us noticing yet: start a fresh one, once.
        await started.browser.kill();
        try {
          context = await (await started.browser.get()).createBrowserContext(contextOptions);
        } catch (error) {
          throw upstream("The browser could not be started.", error ?? first);
        }
      }
      return {
        context,
        session,
        page: null,
        bindResolver: (resolver) => {
          bound = resolver ?? defaultResolver;
        },
      };
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /** Opens the context's page and installs the guard, the trackers and our User-Agent (once per prepared context). */
  private async preparePage(prepared: PreparedPage): Promise<PreparedPageReady> {
    if (prepared.page) return prepared as PreparedPageReady;
    const context = prepared.context;
    // Popups (window.open, target=_blank) are closed as soon as they appear; only our page lives here.
    context.on("targetcreated", (target: Target) => {
      if (target.type() === "page" && target.opener()) void target.page().then((popup) => popup?.close().catch(() => undefined), () => undefined);
    });
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => undefined));
    await page.setBypassServiceWorker(true);
    await page.setUserAgent(await this.renderUserAgent(page));

    const network = trackNetwork(page);
    await installActivityTracker(page);
    const state = await guardPage(page, {
      interceptionGuard: this.options.interceptionGuard ?? true,
      skipHeavyResources: this.options.skipHeavyResources ?? true,
      allowPrivateHosts: this.config.ALLOW_PRIVATE_HOSTS,
    });
    prepared.page = { page, network, state };
    return prepared as PreparedPageReady;
  }

  /**
   * The spare, if one is ready and its page still answers; a dead one (the browser crashed or was
   * killed since) is discarded.
   */
  private async takeSpare(): Promise<PreparedPage | null> {
    const spare = this.spare;
    this.spare = null;
    if (!spare) return null;
    const page = spare.page?.page;
    const alive = page && !page.isClosed() && page.browser().connected && (await withTimeout(page.evaluate("1").then(() => true, () => false), 1_000));
    if (alive) {
      this.sparesUsed += 1;
      return spare;
    }
    void this.discard(spare);
    return null;
  }

  /**
   * Makes the next render's page once the renderer has been idle a moment (SPARE_IDLE_MS): while
   * renders come back to back, starting a renderer process beside a running render only slows both
   * on a small machine, and that render makes its own page anyway. The page is made while the
   * analysis that just rendered goes on in the worker and the link checker.
   */
  private scheduleSpare(): void {
    if (this.spareDisabled || this.spare || this.spareInProgress || this.closing) return;
    const timer = setTimeout(() => {
      if (this.queue.active === 0 && this.queue.queued === 0) this.refillSpare();
    }, SPARE_IDLE_MS);
    timer.unref();
  }

  /** Starts making the next render's context and page in the background (one spare at a time). */
  private refillSpare(): void {
    if (this.spareDisabled || this.spare || this.spareInProgress || this.closing) return;
    const started = this.starting;
    if (!started) return;
    this.spareInProgress = (async () => {
      let prepared: PreparedPage | null = null;
      try {
        const ready = await withTimeout(
          started.then(async (running) => {
            prepared = await this.prepareContext(running);
            return this.preparePage(prepared);
          }),
          STARTUP_ALLOWANCE_MS,
        );
        if (!ready || this.closing || this.spare) {
          if (prepared) await this.discard(prepared);
          return;
        }
        this.spare = ready;
      } catch {
        if (prepared) await this.discard(prepared);
      } finally {
        this.spareInProgress = null;
      }
    })();
  }

  private async discard(prepared: PreparedPage): Promise<void> {
    await withTimeout(prepared.context.close().catch(() => undefined), 3_000);
    await prepared.session.close().catch(() => undefined);
  }

  private async renderInContext(prepared: PreparedPageReady, url: URL, deadline: number, handle: RenderHandle): Promise<RenderResult> {
    const clock = handle.clock;
    const session = prepared.session;
    const { page, network, state } = prepared.page;
    clock.lap("pageSetup");
    let gotoError: unknown = null;
    try {
      await page.goto(url.href, { waitUntil: "load", timeout: Math.max(1, remaining(deadline)) });
    } catch (error) {
      gotoError = error;
    }

    throwIfBlocked(state, session, url);
    const response = state.mainResponse;
    if (!response) {
      const reason = state.failure ?? (gotoError instanceof Error ? gotoError.message : "no response");
      if (/timeout/i.test(reason) || /TimeoutError/.test(String(gotoError))) throw upstream("The page did not answer in time.", gotoError);
      throw upstream(`The page could not be loaded (${reason}).`, gotoError);
    }
    const status = response.status();
    if (status >= 500) throw new ApiError("UPSTREAM_ERROR", `The page answered HTTP ${status}.`, { upstreamStatus: status });
    if (status >= 400) throw new ApiError("UNPROCESSABLE_PAGE", `The page answered HTTP ${status}.`, { upstreamStatus: status });
    const headers = response.headers();
    let isHtml = isHtmlContentType(headers["content-type"]);
    if (isHtml === false) throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${headers["content-type"] ?? "unknown type"}).`, { upstreamStatus: status });

    clock.lap("navigation");
    if (gotoError === null) await settle(page, network, deadline, { quietMs: this.options.settleQuietMs ?? 500, maxMs: this.options.settleMaxMs ?? 5_000 });
    clock.lap("settle");
    // A page still loading at the deadline is analysed as it stands, if it has a document at all.
    const snapshot = await page
      .evaluate(() => {
        // With scripting on, <noscript> holds text, not links. Our parser runs with scripting off and
        // would turn that text back into markup (a <noscript><a> in <head> even escapes into <body>),
        // so the elements go before serializing.
        for (const element of Array.from(document.querySelectorAll("noscript"))) element.remove();
        return {
          url: document.URL,
          type: document.contentType,
          size: document.documentElement ? document.documentElement.outerHTML.length : -1,
        };
      })
      .catch(() => null);
    if (!snapshot || snapshot.size < 0 || snapshot.url.startsWith("chrome-error:")) {
      throw upstream("The page did not produce a document in time.", gotoError);
    }
    isHtml ??= HTML_TYPES.includes(snapshot.type);
    if (!isHtml) throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${snapshot.type}).`, { upstreamStatus: status });
    const maxBytes = this.options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
    // Characters never outnumber UTF-8 bytes, so this cheap count can reject before we serialize.
    if (snapshot.size > maxBytes) throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");
    const html = await page.content();
    if (Buffer.byteLength(html, "utf8") > maxBytes) throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");

    return {
      finalUrl: snapshot.url || response.url(),
      html,
      headerNofollow: robotsHeaderNofollow(headers["x-robots-tag"]),
      headerNoindex: robotsHeaderNoindex(headers["x-robots-tag"]),
      headerChallenge: headersSayChallenge(headers),
      status,
      timings: handle.timings,
    };
  }

  private async renderUserAgent(page: Page): Promise<string> {
    if (!this.userAgent) {
      this.userAgent = browserUserAgent(await page.browser().userAgent());
    }
    return this.userAgent;
  }

  async close(): Promise<void> {
    this.closing = true;
    const spare = this.spare;
    this.spare = null;
    if (spare) await this.discard(spare);
    const started = await this.starting?.catch(() => null);
    this.starting = null;
    if (!started) return;
    await started.browser.close();
    await started.proxy.close();
  }
}

/**
 * Creates a renderer with its own proxy, browser and queue. The app's process-wide renderer is owned by
 * the analyzer's front door (lib/analyzer/index.ts); tests and scripts create their own with an injected
 * resolver.
 *
 * render() waits for `load`, then for network and DOM to go quiet, within `timeoutMs`
 * (RENDER_TIMEOUT_MS); a page still loading at the deadline is analysed as it stands. It throws ApiError:
 *  - BLOCKED_URL (403): the host resolves to a non-public address;
 *  - BLOCKED_REDIRECT (403): a redirect leads to a non-public address or a non-http(s) scheme;
 *  - UNPROCESSABLE_PAGE (422): HTTP 4xx, not HTML, or the DOM is over 10 MiB;
 *  - UPSTREAM_ERROR (502): DNS, connection, TLS, HTTP 5xx, timeout without a document, browser failure;
 *  - RATE_LIMITED (429): MAX_CONCURRENT_RENDERS busy and the short queue full.
 */
export function createRenderer(options: RendererOptions): Renderer {
  return new PuppeteerRenderer(options);
}
