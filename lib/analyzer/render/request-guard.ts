import type { CDPSession, HTTPRequest, HTTPResponse, Page, Protocol } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import type { ProxyListener } from "@/lib/net/filtering-proxy";
import { effectivePort, isAllowListed, literalHostProblem, PUBLIC_PORTS } from "@/lib/net/url-policy";

/**
 * The render's request guard (defence layer 3, see renderer.ts): request interception that aborts
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
  /** A redirect hop of the main document that is not http(s) (see watchRedirectHops). */
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
  const state: NavigationState = {
    mainResponse: null,
    hops: [],
    interceptBlocked: null,
    badSchemeRedirect: null,
    failure: null,
  };
  const isMainNavigation = (request: HTTPRequest) =>
    request.isNavigationRequest() && request.frame() === page.mainFrame();

  const stopWatching = await watchRedirectHops(page, state);
  page.on("request", (request) => {
    if (isMainNavigation(request)) state.hops.push(request.url());
  });
  page.on("requestfailed", (request) => {
    if (!isMainNavigation(request)) return;
    state.failure = request.failure()?.errorText ?? "net::ERR_FAILED";
    stopWatching();
  });
  page.on("response", (response) => {
    const request = response.request();
    if (!isMainNavigation(request)) return;
    const status = response.status();
    if (status >= 300 && status < 400) return;
    state.mainResponse ??= response;
    stopWatching();
  });

  await page.setRequestInterception(true);
  page.on("request", (request) => void intercept(request, isMainNavigation(request), state, settings));
  return state;
}

/** The statuses Chromium follows as redirects. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Records a main-document redirect to a scheme other than http(s) in `state.badSchemeRedirect`.
 * Chromium hands gopher:, ftp:, javascript: and other unknown schemes to the operating system (headless:
 * nowhere) and the navigation ends as a bare net::ERR_ABORTED; Puppeteer reports neither that 3xx nor a
 * next hop (with request interception on it holds each request until a Fetch pause that never comes for
 * such a URL). The protocol's own events do carry it: Network.requestWillBeSent names the main document's
 * request (redirect hops keep its id) and Network.responseReceivedExtraInfo every response's raw headers,
 * Location included. So a session of our own listens until the main document has answered or failed
 * (the returned function ends it; its events would otherwise double every request's).
 */
async function watchRedirectHops(page: Page, state: NavigationState): Promise<() => void> {
  const session: CDPSession = await page.createCDPSession();
  const { frameTree } = await session.send("Page.getFrameTree");
  const mainFrameId = frameTree.frame.id;
  const documentRequests = new Set<string>();
  session.on("Network.requestWillBeSent", (event: Protocol.Network.RequestWillBeSentEvent) => {
    if (event.type === "Document" && event.frameId === mainFrameId) documentRequests.add(event.requestId);
  });
  session.on("Network.responseReceivedExtraInfo", (event: Protocol.Network.ResponseReceivedExtraInfoEvent) => {
    if (!documentRequests.has(event.requestId) || !REDIRECTS.has(event.statusCode)) return;
    const location = Object.entries(event.headers)
      .find(([name]) => name.toLowerCase() === "location")?.[1]
      ?.split("\n")[0];
    if (location === undefined) return;
    // A reference without a scheme of its own keeps the hop's, which is http(s): any http base tells them apart.
    const scheme = URL.parse(location, "http://hop.invalid/")?.protocol;
    if (scheme && scheme !== "http:" && scheme !== "https:") state.badSchemeRedirect ??= location;
  });
  await session.send("Network.enable");
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    void session.detach().catch(() => undefined);
  };
}

/** Layer 3; also the place that keeps the page from navigating away after its document arrived. */
async function intercept(
  request: HTTPRequest,
  mainNavigation: boolean,
  state: NavigationState,
  settings: GuardSettings,
): Promise<void> {
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
  const schemeRefusal = /ERR_UNSAFE_REDIRECT|ERR_UNKNOWN_URL_SCHEME|ERR_DISALLOWED_URL_SCHEME/.test(
    state.failure ?? "",
  );
  if (state.badSchemeRedirect || (!state.mainResponse && schemeRefusal)) {
    throw new ApiError("BLOCKED_REDIRECT", "The page redirects to a URL that is not http or https.");
  }
  if (state.interceptBlocked) {
    if (redirected(state.interceptBlocked))
      throw new ApiError("BLOCKED_REDIRECT", "The page redirects to an address LinkLens may not fetch.");
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
    const refused =
      session.wasUrlBlocked(target.href) ||
      (!response && session.wasHostBlocked(target.hostname, effectivePort(target)));
    if (!refused) continue;
    if (redirected(hop))
      throw new ApiError("BLOCKED_REDIRECT", "The page redirects to an address LinkLens may not fetch.");
    throw new ApiError("BLOCKED_URL", "The URL's host is not a public address.");
  }
}
