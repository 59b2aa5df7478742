import type { HTTPRequest, HTTPResponse, Page } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import type { ProxyListener } from "@/lib/net/filtering-proxy";
import { effectivePort, isAllowListed, literalHostProblem, PUBLIC_PORTS } from "@/lib/net/url-policy";

/**
 * The render's request guard (defence layer 3, see render.ts): request interception that aborts
 * non-http(s) and literally-private requests early and keeps the page from navigating itself away once
 * its document arrived; and the reading of what any layer refused for the main document as
 * BLOCKED_URL / BLOCKED_REDIRECT. Layer 2 (the filtering proxy) must hold without this; this layer
 * only makes failures faster and clearer.
 */

const HEAVY_TYPES = new Set(["image", "media", "font"]);

/** What we learn about the main frame's navigation while it happens. */
export interface NavigationState {
  /** Final (non-redirect) response of the main document. */
  mainResponse: HTTPResponse | null;
  /** Every main-frame navigation request URL, in order (redirect hops included). */
  hops: string[];
  /** A main-frame hop the interception layer refused. */
  interceptBlocked: string | null;
  /** A redirect whose Location was not http(s). */
  badSchemeRedirect: string | null;
  /** Last main-frame request failure text (net::ERR_…). */
  failure: string | null;
}

/** Settings of the guard for one page. */
export interface GuardSettings {
  /** Layer 3 on/off; tests turn it off to prove the proxy holds alone. */
  interceptionGuard: boolean;
  /** Skip images, media and fonts for speed. Links never depend on them. */
  skipHeavyResources: boolean;
  allowPrivateHosts: readonly string[];
}

/**
 * Watches `page`'s main-frame navigation and installs request interception. Call before page.goto;
 * the returned state fills in as the navigation happens.
 */
export async function guardPage(page: Page, settings: GuardSettings): Promise<NavigationState> {
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

  await page.setRequestInterception(true);
  page.on("request", (request) => void intercept(request, isMainNavigation(request), state, settings));
  return state;
}

/** Layer 3; also the place that keeps the page from navigating away after its document arrived. */
async function intercept(request: HTTPRequest, mainNavigation: boolean, state: NavigationState, settings: GuardSettings): Promise<void> {
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
    if (settings.interceptionGuard && target) {
      const port = effectivePort(target);
      const allowed = isAllowListed(target.hostname, port, settings.allowPrivateHosts);
      if (!allowed && (!PUBLIC_PORTS.has(port) || literalHostProblem(target.hostname))) {
        if (mainNavigation) state.interceptBlocked = raw;
        await request.abort("blockedbyclient");
        return;
      }
    }
    if (settings.skipHeavyResources && HEAVY_TYPES.has(request.resourceType())) {
      await request.abort("blockedbyclient");
      return;
    }
    await request.continue();
  } catch {
    // The page or context went away mid-decision; nothing left to protect.
  }
}

/** Turns what the layers refused for the main document into BLOCKED_URL / BLOCKED_REDIRECT. */
export function throwIfBlocked(state: NavigationState, session: ProxyListener, url: URL): void {
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
