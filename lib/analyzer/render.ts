import type { BrowserContext, HTTPRequest, HTTPResponse, Page, Target } from "puppeteer-core";
import { ApiError } from "@/lib/api/errors";
import { getConfig, type Config } from "@/lib/config";
import { BrowserManager, getBrowserOwner, setBrowserOwner } from "@/lib/analyzer/browser";
import { RenderQueue } from "@/lib/analyzer/render-queue";
import { FilteringProxy, type ProxyListener } from "@/lib/net/filtering-proxy";
import { assertPublicHost, type Resolver } from "@/lib/net/resolve";
import { effectivePort, isAllowListed, literalHostProblem, PUBLIC_PORTS } from "@/lib/net/url-policy";

/**
 * URL mode's renderer: loads a public page in a fresh incognito context of the warm browser, lets
 * its scripts run, and returns the serialized DOM.
 *
 * Defence in depth, outermost first:
 *  1. the URL's host is resolved and checked before anything is sent (BLOCKED_URL);
 *  2. the context's only way out is a filtering-proxy session (lib/net/filtering-proxy.ts), which
 *     checks every connection of every kind (documents, redirects, subresources, workers, WebSocket,
 *     beacons, prefetch) at connect time and pins the checked IP;
 *  3. request interception aborts non-http(s) and literally-private requests early, and stops the
 *     page from navigating itself away once its document has arrived.
 * Layer 2 is the one that must hold on its own; layer 3 only makes failures faster and clearer.
 */

/** What renderPage returns. */
export interface RenderResult {
  /** The document's URL after redirects (document.URL at serialization time). */
  finalUrl: string;
  /** The serialized DOM after scripts ran (page.content()). */
  html: string;
  /** The main response's X-Robots-Tag said nofollow or none (for us, googlebot or everyone). */
  headerNofollow: boolean;
  /** HTTP status of the main document's final response. */
  status: number;
}

/** Per-call options of renderPage. */
export interface RenderOptions {
  /** Default: RENDER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Aborts the render (client went away); the context is closed at once. */
  signal?: AbortSignal;
  /** DNS for this render (one analysis's cache, shared with its link checks); default: the renderer's. */
  resolver?: Resolver;
}

/** Options of createRenderer. Everything defaults to the process configuration. */
export interface RendererOptions {
  config?: Config;
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
}

/** A renderer: a filtering proxy, a warm browser and a render queue. */
export interface Renderer {
  /** Renders `url`; see renderPage. */
  render(url: URL, options?: RenderOptions): Promise<RenderResult>;
  /** Closes the browser (no orphaned Chromium) and the proxy. */
  close(): Promise<void>;
  /** The proxy, once started (tests inspect its listeners). */
  readonly proxy: FilteringProxy | null;
  /** The browser manager, once started. */
  readonly browser: BrowserManager | null;
  /** The queue (tests and metrics). */
  readonly queue: RenderQueue;
}

const DEFAULT_MAX_HTML_BYTES = 10 * 1024 * 1024;
const HTML_TYPES = ["text/html", "application/xhtml+xml"];
const HEAVY_TYPES = new Set(["image", "media", "font"]);
/** X-Robots-Tag scopes that speak to us: unscoped (everyone), Google's crawler, and our own bot. */
const OUR_ROBOTS_SCOPES = new Set(["googlebot", "linklensbot"]);
/** X-Robots-Tag directives that carry a `name: value`, so their colon is not a user-agent scope. */
const VALUED_DIRECTIVES = new Set(["max-snippet", "max-image-preview", "max-video-preview", "unavailable_after", "indexifembedded"]);
export const RENDER_USER_AGENT_SUFFIX = "LinkLensBot/1.0 (+https://linklens.dev/docs)";

/**
 * Whether an X-Robots-Tag value (one header, or several joined by newlines) tells us not to
 * follow the page's links: `nofollow` or `none`, unscoped or scoped to googlebot/linklensbot.
 * `otherbot: nofollow` does not apply to us. A scope applies until the next scope in the same header.
 */
export function robotsHeaderNofollow(value: string | undefined | null): boolean {
  if (!value) return false;
  for (const header of value.split(/\n/)) {
    let scope: string | null = null;
    for (const piece of header.split(",")) {
      let token = piece.trim().toLowerCase();
      const scoped = /^([a-z0-9_*.-]+)\s*:\s*(.*)$/.exec(token);
      if (scoped?.[1] && !VALUED_DIRECTIVES.has(scoped[1])) {
        scope = scoped[1];
        token = (scoped[2] ?? "").trim();
      }
      if ((token === "nofollow" || token === "none") && (scope === null || OUR_ROBOTS_SCOPES.has(scope))) return true;
    }
  }
  return false;
}

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

async function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Shared by a render and its watchdog. */
interface RenderHandle {
  context: BrowserContext | null;
  /** Called once the page's context exists: the page's own clock starts then (see withWatchdog). */
  ready?: () => void;
}

/** How long starting (or reconnecting) the browser may take before the watchdog gives up, ms. */
const STARTUP_ALLOWANCE_MS = 30_000;

/** Requests of the page's frames still in flight, and when that set last changed. */
interface NetworkTracker {
  inflight: Set<HTTPRequest>;
  lastActivity: number;
}

/** What we learn about the main frame's navigation while it happens. */
interface NavigationState {
  /** Final (non-redirect) response of the main document. */
  mainResponse: HTTPResponse | null;
  /** Every main-frame navigation request URL, in order (redirect hops included). */
  hops: string[];
  /** A main-frame hop the interception layer refused, and whether for its scheme. */
  interceptBlocked: string | null;
  /** A redirect whose Location was not http(s). */
  badSchemeRedirect: string | null;
  /** Last main-frame request failure text (net::ERR_…). */
  failure: string | null;
}

class PuppeteerRenderer implements Renderer {
  readonly queue: RenderQueue;
  proxy: FilteringProxy | null = null;
  browser: BrowserManager | null = null;
  private starting: Promise<{ proxy: FilteringProxy; browser: BrowserManager }> | null = null;
  private userAgent: string | null = null;
  private readonly config: Config;

  constructor(private readonly options: RendererOptions) {
    this.config = options.config ?? getConfig();
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
    const release = await this.queue.acquire(options.signal);
    try {
      return await this.withWatchdog(url, timeoutMs, options.signal, options.resolver ?? this.options.resolver);
    } finally {
      release();
    }
  }

  /**
   * Runs one render under a hard deadline of timeout + grace, counted from when its context exists.
   * Past it, the render's context is closed; if even that hangs, the browser is killed (the next
   * render starts a fresh one). Starting a cold browser is not the page's time: on a busy machine a
   * launch took most of a 5 s deadline and a blocked redirect came back as 502 "did not answer in
   * time". Until the context exists the watchdog allows the launch its own timeout instead.
   */
  private async withWatchdog(url: URL, timeoutMs: number, signal?: AbortSignal, resolver?: Resolver): Promise<RenderResult> {
    signal?.throwIfAborted();
    const handle: RenderHandle = { context: null };
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
    const closed = await bounded(
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
    let session: ProxyListener;
    try {
      started = await this.ensureStarted();
      session = await started.proxy.openSession({ resolver });
    } catch (error) {
      throw upstream("The page renderer could not start.", error);
    }
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
      handle.context = context;
      const deadline = Date.now() + timeoutMs;
      handle.ready?.();
      try {
        return await this.renderInContext(context, session, url, deadline);
      } finally {
        handle.context = null;
        await bounded(context.close().catch(() => undefined), 3_000);
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw upstream("The browser failed while rendering the page.", error);
    } finally {
      await session.close();
    }
  }

  private async renderInContext(context: BrowserContext, session: ProxyListener, url: URL, deadline: number): Promise<RenderResult> {
    // Popups (window.open, target=_blank) are closed as soon as they appear; only our page lives here.
    context.on("targetcreated", (target: Target) => {
      if (target.type() === "page" && target.opener()) void target.page().then((popup) => popup?.close().catch(() => undefined), () => undefined);
    });
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => undefined));
    await page.setBypassServiceWorker(true);
    await page.setUserAgent(await this.renderUserAgent(page));

    const state: NavigationState = { mainResponse: null, hops: [], interceptBlocked: null, badSchemeRedirect: null, failure: null };
    const isMainNavigation = (request: HTTPRequest) => request.isNavigationRequest() && request.frame() === page.mainFrame();

    page.on("request", (request) => {
      if (isMainNavigation(request)) state.hops.push(request.url());
    });
    page.on("requestfailed", (request) => {
      if (isMainNavigation(request)) state.failure = request.failure()?.errorText ?? "net::ERR_FAILED";
    });
    page.on("response", (response) => {
      const request = response.request();
      if (!isMainNavigation(request)) return;
      const status = response.status();
      if (status >= 300 && status < 400) {
        const location = response.headers().location;
        if (location) {
          try {
            const next = new URL(location, response.url());
            if (next.protocol !== "http:" && next.protocol !== "https:") state.badSchemeRedirect = next.href;
          } catch {
            // An unparsable Location fails the navigation on its own.
          }
        }
        return;
      }
      state.mainResponse ??= response;
    });

    // Our own count of the page's requests in flight. puppeteer's waitForNetworkIdle also counts requests
    // of shared workers whose end it never sees, so any page with a SharedWorker would wait until the deadline.
    const network: NetworkTracker = { inflight: new Set(), lastActivity: Date.now() };
    page.on("request", (request) => {
      if (!request.frame()) return;
      network.inflight.add(request);
      network.lastActivity = Date.now();
    });
    const settled = (request: HTTPRequest) => {
      if (network.inflight.delete(request)) network.lastActivity = Date.now();
    };
    page.on("requestfinished", settled);
    page.on("requestfailed", settled);

    const guard = this.options.interceptionGuard ?? true;
    const skipHeavy = this.options.skipHeavyResources ?? true;
    await page.setRequestInterception(true);
    page.on("request", (request) => void this.intercept(request, isMainNavigation(request), state, guard, skipHeavy));

    let gotoError: unknown = null;
    try {
      await page.goto(url.href, { waitUntil: "load", timeout: Math.max(1, remaining(deadline)) });
    } catch (error) {
      gotoError = error;
    }

    this.throwIfBlocked(state, session, url);
    const response = state.mainResponse;
    if (!response) {
      const reason = state.failure ?? (gotoError instanceof Error ? gotoError.message : "no response");
      if (/timeout/i.test(reason) || /TimeoutError/.test(String(gotoError))) throw upstream("The page did not answer in time.", gotoError);
      throw upstream(`The page could not be loaded (${reason}).`, gotoError);
    }
    const status = response.status();
    if (status >= 500) throw upstream(`The page answered HTTP ${status}.`);
    if (status >= 400) throw new ApiError("UNPROCESSABLE_PAGE", `The page answered HTTP ${status}.`);
    const headers = response.headers();
    let isHtml = isHtmlContentType(headers["content-type"]);
    if (isHtml === false) throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${headers["content-type"] ?? "unknown type"}).`);

    if (gotoError === null) await this.settle(page, network, deadline);
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
    if (!isHtml) throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${snapshot.type}).`);
    const maxBytes = this.options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
    // Characters never outnumber UTF-8 bytes, so this cheap count can reject before we serialize.
    if (snapshot.size > maxBytes) throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");
    const html = await page.content();
    if (Buffer.byteLength(html, "utf8") > maxBytes) throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");

    return {
      finalUrl: snapshot.url || response.url(),
      html,
      headerNofollow: robotsHeaderNofollow(headers["x-robots-tag"]),
      status,
    };
  }

  /** Layer 3; also the place that keeps the page from navigating away after its document arrived. */
  private async intercept(request: HTTPRequest, mainNavigation: boolean, state: NavigationState, guard: boolean, skipHeavy: boolean): Promise<void> {
    if (request.isInterceptResolutionHandled()) return;
    const raw = request.url();
    let target: URL | null = null;
    try {
      target = new URL(raw);
    } catch {
      target = null;
    }
    const scheme = target?.protocol ?? "";
    const network = scheme === "http:" || scheme === "https:";
    try {
      if (mainNavigation && state.mainResponse) {
        // The document is here; scripts, meta refresh or forms may not swap it for another one.
        await request.abort("aborted");
        return;
      }
      if (!network) {
        if (scheme === "data:" || scheme === "blob:" || scheme === "about:") {
          await request.continue();
          return;
        }
        if (mainNavigation) state.interceptBlocked = raw;
        await request.abort("blockedbyclient");
        return;
      }
      if (guard && target) {
        const port = effectivePort(target);
        const allowed = isAllowListed(target.hostname, port, this.config.ALLOW_PRIVATE_HOSTS);
        if (!allowed && (!PUBLIC_PORTS.has(port) || literalHostProblem(target.hostname))) {
          if (mainNavigation) state.interceptBlocked = raw;
          await request.abort("blockedbyclient");
          return;
        }
      }
      if (skipHeavy && HEAVY_TYPES.has(request.resourceType())) {
        await request.abort("blockedbyclient");
        return;
      }
      await request.continue();
    } catch {
      // The page or context went away mid-decision; nothing left to protect.
    }
  }

  /** Turns what the layers refused for the main document into BLOCKED_URL / BLOCKED_REDIRECT. */
  private throwIfBlocked(state: NavigationState, session: ProxyListener, url: URL): void {
    const redirected = (hop: string) => hop !== url.href || state.hops.length > 1;
    // Chromium refuses redirects to file:, data:, javascript: and unknown schemes on its own, before any
    // response event reaches us; its error text is then the only trace.
    const schemeRefusal = /ERR_UNSAFE_REDIRECT|ERR_UNKNOWN_URL_SCHEME|ERR_DISALLOWED_URL_SCHEME/.test(state.failure ?? "");
    if (state.badSchemeRedirect || (!state.mainResponse && schemeRefusal)) {
      throw new ApiError("BLOCKED_REDIRECT", "The page redirects to a URL that is not http or https.");
    }
    if (state.interceptBlocked) {
      if (redirected(state.interceptBlocked)) throw new ApiError("BLOCKED_REDIRECT", "The page redirects to an address LinkLens may not fetch.");
      throw new ApiError("BLOCKED_URL", "The URL's host is not a public address.");
    }
    // The proxy refused the main document: as a 403 of its own (plain http) or a failed tunnel (https).
    const response = state.mainResponse;
    const candidates = response ? (response.status() === 403 ? [response.url()] : []) : state.hops.slice(-1);
    for (const hop of candidates) {
      let target: URL;
      try {
        target = new URL(hop);
      } catch {
        continue;
      }
      const refused = session.wasUrlBlocked(target.href) || (!response && session.wasHostBlocked(target.hostname, effectivePort(target)));
      if (!refused) continue;
      if (redirected(hop)) throw new ApiError("BLOCKED_REDIRECT", "The page redirects to an address LinkLens may not fetch.");
      throw new ApiError("BLOCKED_URL", "The URL's host is not a public address.");
    }
  }

  /**
   * After `load`, scripts often keep adding links (timers, fetch then render). Wait until the
   * network has been idle and the DOM unchanged for a quiet period, bounded by the deadline and a cap.
   */
  private async settle(page: Page, tracker: NetworkTracker, deadline: number): Promise<void> {
    const quietMs = this.options.settleQuietMs ?? 500;
    const capMs = Math.min(remaining(deadline), this.options.settleMaxMs ?? 5_000);
    if (capMs <= 0) return;
    const stopAt = Date.now() + capMs;
    const network = (async () => {
      while (Date.now() < stopAt) {
        if (tracker.inflight.size === 0 && Date.now() - tracker.lastActivity >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const dom = page
      .evaluate(
        (quiet: number, cap: number) =>
          new Promise<void>((resolve) => {
            let timer = setTimeout(done, quiet);
            const observer = new MutationObserver(() => {
              clearTimeout(timer);
              timer = setTimeout(done, quiet);
            });
            const hardStop = setTimeout(done, cap);
            function done() {
              observer.disconnect();
              clearTimeout(timer);
              clearTimeout(hardStop);
              resolve();
            }
            observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          }),
        quietMs,
        capMs,
      )
      .catch(() => undefined);
    await bounded(Promise.all([network, dom]), capMs + 250);
  }

  private async renderUserAgent(page: Page): Promise<string> {
    if (!this.userAgent) {
      const base = await page.browser().userAgent();
      // Say who we are (an honest bot suffix) without the HeadlessChrome token that makes many sites serve an error page.
      this.userAgent = `${base.replace("HeadlessChrome", "Chrome")} ${RENDER_USER_AGENT_SUFFIX}`;
    }
    return this.userAgent;
  }

  async close(): Promise<void> {
    const started = await this.starting?.catch(() => null);
    this.starting = null;
    if (!started) return;
    await started.browser.close();
    await started.proxy.close();
  }
}

/**
 * Creates a renderer with its own proxy, browser and queue. The app uses the process-wide default
 * (renderPage); tests and scripts create their own with a config override and an injected resolver.
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  return new PuppeteerRenderer(options);
}

function defaultRenderer(): Renderer {
  const existing = getBrowserOwner();
  // Duck-typed, not instanceof: another Next.js chunk may have created it from its own copy of this class.
  if (existing && "render" in existing && typeof existing.render === "function") return existing as Renderer;
  const renderer = new PuppeteerRenderer({});
  setBrowserOwner(renderer);
  return renderer;
}

/**
 * Renders a public page in the process's warm browser and returns its DOM after scripts ran.
 *
 * Waits for `load`, then for network and DOM to go quiet, within `timeoutMs` (RENDER_TIMEOUT_MS);
 * a page still loading at the deadline is analysed as it stands.
 *
 * @throws ApiError
 *  - BLOCKED_URL (403): the host resolves to a non-public address;
 *  - BLOCKED_REDIRECT (403): a redirect leads to a non-public address or a non-http(s) scheme;
 *  - UNPROCESSABLE_PAGE (422): HTTP 4xx, not HTML, or the DOM is over 10 MiB;
 *  - UPSTREAM_ERROR (502): DNS, connection, TLS, HTTP 5xx, timeout without a document, browser failure;
 *  - RATE_LIMITED (429): MAX_CONCURRENT_RENDERS busy and the short queue full.
 */
export async function renderPage(url: URL, options: RenderOptions = {}): Promise<RenderResult> {
  return defaultRenderer().render(url, options);
}
