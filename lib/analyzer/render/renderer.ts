import type { Browser } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import type { Config } from "@/lib/config";
import { BrowserManager } from "@/lib/analyzer/render/browser";
import { leasePage, type PageLease } from "@/lib/analyzer/render/lease";
import { printHtml, type PrintOptions } from "@/lib/analyzer/render/print";
import { loadAndCapture, type CapturedPage, type RawBodyListener } from "@/lib/analyzer/render/capture";
import { discardPage, PageFactory, type PreparedPage, type RenderStack } from "@/lib/analyzer/render/context";
import { RenderQueue, type RenderPriority } from "@/lib/analyzer/render/queue";
import { SparePages } from "@/lib/analyzer/render/spare";
import { underWatchdog, upstream, type RenderHandle } from "@/lib/analyzer/render/watchdog";
import { FilteringProxy } from "@/lib/net/filtering-proxy";
import { assertPublicHost, systemResolver, type Resolver } from "@/lib/net/resolve";
import { effectivePort } from "@/lib/net/url-policy";
import { withTimeout } from "@/lib/timeout";
import { Stopwatch, type StageTimings } from "@/lib/analyzer/timings";
import { DESKTOP_VIEWPORT } from "@/lib/analyzer/render/viewport";
import { GOOGLEBOT_VIEWPORT, type RenderAgent } from "@/lib/analyzer/render/googlebot";

/**
 * URL mode's renderer: loads a public page in a fresh incognito context of the warm browser, lets
 * its scripts run, and returns the serialized DOM.
 *
 * Defence in depth, outermost first:
 *  1. the URL's host is resolved and checked before anything is sent (BLOCKED_URL);
 *  2. the context's only way out is a filtering-proxy session (lib/net/filtering-proxy.ts), which
 *     checks every connection of every kind (documents, redirects, subresources, workers, WebSocket,
 *     beacons, prefetch) at connect time and pins the checked IP;
 *  3. request interception (request-guard.ts) aborts non-http(s) and literally-private requests early,
 *     and stops the page from navigating itself away once its document has arrived.
 * Layer 2 is the one that must hold on its own; layer 3 only makes failures faster and clearer.
 * After `load`, settle.ts waits for network and DOM to go quiet, viewport.ts grows the viewport to the
 * document and lets it settle again; lib/analyzer/robots/directives.ts reads X-Robots-Tag.
 *
 * The parts: context.ts (a render's context, proxy session and guarded page), spare.ts
 * (the next render's page, made ahead), watchdog.ts (the hard deadline), capture.ts (page
 * load and serialization).
 */

/** What Renderer.render returns: the captured page (capture.ts) and where its time went. */
export interface RenderResult extends CapturedPage {
  /** Where the render's time went (queue, browser, context, navigation, settle, capture). */
  timings: StageTimings;
  /** With keepPage: the rendered page, still open (network cut) until the caller closes it; else null. */
  lease: PageLease | null;
}

/** Per-call options of Renderer.render. */
export interface RenderOptions {
  /** Default: RENDER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Aborts the render (client went away); the context is closed at once. */
  signal?: AbortSignal;
  /** DNS for this render (one analysis's cache, shared with its link checks); default: the renderer's. */
  resolver?: Resolver;
  /** Signed-in renders: the visibility pass and the raw body (capture.ts); default off. */
  signals?: boolean;
  /** With signals: told the raw body as soon as it is read, before the page settles. */
  onRawBody?: RawBodyListener;
  /** Waiting renders start interactive first (default), then background (scheduled monitor checks); see queue.ts. */
  priority?: RenderPriority;
  /**
   * Keep the page open after the render for evidence screenshots (lib/analyzer/screenshots/camera.ts): the
   * result's `lease` must be closed by the caller; it closes itself after KEPT_PAGE_MAX_MS at the latest. The
   * render's slot and proxy session end with the render as always, so the kept page reaches nothing.
   */
  keepPage?: boolean;
  /**
   * Who renders (render/googlebot.ts): a desktop visitor (default) or Googlebot Smartphone (google-view.md §2),
   * in a fresh context of its own (never a spare made ready as a visitor), behind the same guard and limits.
   */
  agent?: RenderAgent;
}

/** The settings a renderer needs, picked from Config once by the caller (never read from the environment here). */
export type RenderSettings = Pick<
  Config,
  | "RENDER_TIMEOUT_MS"
  | "MAX_CONCURRENT_RENDERS"
  | "ALLOW_PRIVATE_HOSTS"
  | "BROWSER_WS_ENDPOINT"
  | "PUPPETEER_EXECUTABLE_PATH"
  | "DENY_HOSTS"
>;

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
  /**
   * Prints a document of ours to PDF in the same browser (print.ts); waits for a render slot like a render
   * of the options' priority (interactive unless told).
   */
  print(html: string, options: PrintOptions): Promise<Buffer>;
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

class PuppeteerRenderer implements Renderer {
  readonly queue: RenderQueue;
  proxy: FilteringProxy | null = null;
  browser: BrowserManager | null = null;
  private starting: Promise<RenderStack> | null = null;
  private readonly pages: PageFactory;
  private readonly spares: SparePages;
  private readonly config: RenderSettings;

  constructor(private readonly options: RendererOptions) {
    this.config = options.config;
    const concurrency = this.config.MAX_CONCURRENT_RENDERS;
    this.queue = new RenderQueue(concurrency, options.maxQueued ?? concurrency * 2);
    this.pages = new PageFactory({
      defaultResolver: options.resolver ?? systemResolver,
      interceptionGuard: options.interceptionGuard ?? true,
      skipHeavyResources: options.skipHeavyResources ?? true,
      allowPrivateHosts: this.config.ALLOW_PRIVATE_HOSTS,
    });
    this.spares = new SparePages({
      pages: this.pages,
      stack: () => this.starting,
      idle: () => this.queue.active === 0 && this.queue.queued === 0,
      disabled: options.sparePage === false,
    });
  }

  get sparesUsed(): number {
    return this.spares.used;
  }

  private ensureStarted(): Promise<RenderStack> {
    this.starting ??= (async () => {
      const proxy = await FilteringProxy.start({
        allowPrivateHosts: this.config.ALLOW_PRIVATE_HOSTS,
        denyHosts: this.config.DENY_HOSTS,
        resolver: this.options.resolver,
        bindHost: this.options.proxyBindHost,
        advertiseHost: this.options.proxyAdvertiseHost,
      });
      const browser = new BrowserManager({
        config: this.config,
        proxyUrl: proxy.url,
        extraArgs: this.options.extraArgs,
      });
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
    const release = await this.queue.acquire(options.signal, options.priority);
    clock.lap("renderQueue");
    try {
      const handle: RenderHandle = { clock, timings, context: null };
      const resolver = options.resolver ?? this.options.resolver;
      const limits = { timeoutMs, graceMs: this.options.watchdogGraceMs ?? 5_000 };
      return await underWatchdog(
        () => this.renderOnce(url, timeoutMs, handle, resolver, options),
        handle,
        limits,
        options.signal,
        async () => {
          await this.browser?.kill();
        },
      );
    } finally {
      release();
      this.spares.schedule();
    }
  }

  private async renderOnce(
    url: URL,
    timeoutMs: number,
    handle: RenderHandle,
    resolver: Resolver | undefined,
    options: RenderOptions,
  ): Promise<RenderResult> {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new ApiError("INVALID_URL", "Only http and https URLs can be analysed.");
    // Layer 1: a blocked first host answers BLOCKED_URL before the browser sees anything.
    await assertPublicHost(url.hostname, effectivePort(url), this.config.ALLOW_PRIVATE_HOSTS, {
      resolver,
      denyHosts: this.config.DENY_HOSTS,
    });

    // A cold launch (or a relaunch after a crash) is not the page's time: it happens before the clock starts.
    const { started } = await this.liveBrowser();
    handle.clock.lap("browserStart");
    // Like the launch, waiting for a spare being made is before the page's clock starts (spare.ts).
    // Spares are visitors' pages: Googlebot's render makes its own context and page.
    const agent = options.agent ?? "visitor";
    let prepared: PreparedPage | null = agent === "visitor" ? await this.spares.take() : null;
    try {
      prepared ??= await this.pages.prepareContext(started);
      prepared.bindResolver(resolver);
      handle.context = prepared.context;
      handle.clock.lap("context");
    } catch (error) {
      if (prepared) void discardPage(prepared);
      if (error instanceof ApiError) throw error;
      throw upstream("The browser could not be started.", error);
    }
    const { context, session } = prepared;
    try {
      const deadline = Date.now() + timeoutMs;
      handle.ready?.();
      let lease: PageLease | null = null;
      try {
        const ready = await this.pages.preparePage(prepared, agent);
        const captured = await loadAndCapture(ready, url, deadline, handle.clock, {
          maxHtmlBytes: this.options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES,
          settleQuietMs: this.options.settleQuietMs ?? 500,
          settleMaxMs: this.options.settleMaxMs ?? 5_000,
          viewport: agent === "googlebot" ? GOOGLEBOT_VIEWPORT : DESKTOP_VIEWPORT,
          signals: options.signals === true,
          onRawBody: options.onRawBody,
        });
        if (options.keepPage) lease = await leasePage(ready.page.page, context);
        return { ...captured, timings: handle.timings, lease };
      } finally {
        handle.context = null;
        handle.clock.lap("capture");
        if (!lease)
          await withTimeout(
            context.close().catch(() => undefined),
            3_000,
          );
        handle.clock.lap("contextClose");
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw upstream("The browser failed while rendering the page.", error);
    } finally {
      await session.close();
    }
  }

  /** The proxy and a running browser: started on first use, and relaunched once if the warm one died. */
  private async liveBrowser(): Promise<{ started: RenderStack; browser: Browser }> {
    let started: RenderStack;
    try {
      started = await this.ensureStarted();
    } catch (error) {
      throw upstream("The page renderer could not start.", error);
    }
    try {
      return { started, browser: await started.browser.get() };
    } catch (first) {
      await started.browser.kill();
      try {
        return { started, browser: await started.browser.get() };
      } catch (error) {
        throw upstream("The browser could not be started.", error ?? first);
      }
    }
  }

  async print(html: string, options: PrintOptions): Promise<Buffer> {
    const release = await this.queue.acquire(undefined, options.priority ?? "interactive");
    try {
      const { browser } = await this.liveBrowser();
      return await printHtml(browser, html, options);
    } finally {
      release();
      this.spares.schedule();
    }
  }

  async close(): Promise<void> {
    await this.spares.close();
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
