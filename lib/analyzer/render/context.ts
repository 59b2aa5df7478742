import { randomBytes } from "node:crypto";
import type { BrowserContext, CDPSession, Page, Target } from "puppeteer-core";
import type { BrowserManager } from "@/lib/analyzer/render/browser";
import { guardPage, type NavigationState } from "@/lib/analyzer/render/request-guard";
import { upstream } from "@/lib/analyzer/render/watchdog";
import { installActivityTracker, trackNetwork, type NetworkTracker } from "@/lib/analyzer/render/settle";
import { pageScript } from "@/lib/analyzer/render/page-script";
import { SHADOW_KEEPER_KEY, shadowRootKeeper, type ShadowKeeperAccess } from "@/lib/analyzer/render/shadow-roots";
import { browserUserAgent } from "@/lib/analyzer/user-agent";
import { emulateGooglebot, type RenderAgent } from "@/lib/analyzer/render/googlebot";
import type { FilteringProxy, ProxyListener } from "@/lib/net/filtering-proxy";
import type { Resolver } from "@/lib/net/resolve";
import { withTimeout } from "@/lib/timeout";

/**
 * A render's own place in the browser: a fresh incognito context behind a proxy session of its own,
 * and its one page with the guard (request-guard.ts), the trackers (settle.ts), the shadow-root keeper
 * (shadow-roots.ts), a CDP session of its own (viewport.ts, capture.ts) and our User-Agent.
 */

/** A render's page, ready for its navigation. */
export interface GuardedPage {
  page: Page;
  network: NetworkTracker;
  state: NavigationState;
  /** Our own CDP session with the page (made with the page, off the render's clock when it is a spare). */
  cdp: CDPSession;
  /** How the render's page functions reach the shadow roots scripts attach (shadow-roots.ts). */
  shadow: ShadowKeeperAccess;
}

/** The renderer's filtering proxy and browser, once started. */
export interface RenderStack {
  proxy: FilteringProxy;
  browser: BrowserManager;
}

/** One render's own incognito context and proxy session, and (once opened) its guarded page. */
export interface PreparedPage {
  context: BrowserContext;
  session: ProxyListener;
  page: GuardedPage | null;
  /** Points the session's DNS at the render's resolver (undefined: the renderer's default). */
  bindResolver(resolver: Resolver | undefined): void;
}
export type PreparedPageReady = PreparedPage & { page: NonNullable<PreparedPage["page"]> };

/** What a page needs to know, picked from the renderer's options. */
export interface PageSettings {
  /** DNS when a render brings none of its own. */
  defaultResolver: Resolver;
  interceptionGuard: boolean;
  skipHeavyResources: boolean;
  allowPrivateHosts: readonly string[];
}

/** Closes a prepared page's context and session, bounded; never throws. */
export async function discardPage(prepared: PreparedPage): Promise<void> {
  await withTimeout(
    prepared.context.close().catch(() => undefined),
    3_000,
  );
  await prepared.session.close().catch(() => undefined);
}

/** Makes contexts and pages for one renderer (it keeps the browser's User-Agent, read once). */
export class PageFactory {
  private userAgent: string | null = null;

  constructor(private readonly settings: PageSettings) {}

  /**
   * A new incognito context behind a new proxy session of its own. DNS is bound later
   * (bindResolver): until then the session refuses every connection.
   */
  async prepareContext(started: RenderStack): Promise<PreparedPage> {
    let bound: Resolver | null = null;
    const defaultResolver = this.settings.defaultResolver;
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

  /**
   * Opens the context's page and installs the guard, the trackers and who it is (once per prepared context):
   * our User-Agent for a visitor's render, Googlebot Smartphone's User-Agent and phone for Google's view.
   */
  async preparePage(prepared: PreparedPage, agent: RenderAgent = "visitor"): Promise<PreparedPageReady> {
    if (prepared.page) return prepared as PreparedPageReady;
    const context = prepared.context;
    // Popups (window.open, target=_blank) are closed as soon as they appear; only our page lives here.
    context.on("targetcreated", (target: Target) => {
      if (target.type() === "page" && target.opener())
        void target.page().then(
          (popup) => popup?.close().catch(() => undefined),
          () => undefined,
        );
    });
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => undefined));
    await page.setBypassServiceWorker(true);
    if (agent === "googlebot") await emulateGooglebot(page, await page.browser().userAgent());
    else await page.setUserAgent(await this.renderUserAgent(page));

    const network = trackNetwork(page);
    await installActivityTracker(page);
    // A new secret for every page: what the keeper remembers is handed only to this render's own page functions.
    const shadow = { key: SHADOW_KEEPER_KEY, secret: randomBytes(12).toString("base64url") };
    await page.evaluateOnNewDocument(pageScript(shadowRootKeeper, shadow.key, shadow.secret));
    const cdp = await page.createCDPSession();
    const state = await guardPage(page, {
      interceptionGuard: this.settings.interceptionGuard,
      skipHeavyResources: this.settings.skipHeavyResources,
      allowPrivateHosts: this.settings.allowPrivateHosts,
    });
    prepared.page = { page, network, state, cdp, shadow };
    return prepared as PreparedPageReady;
  }

  private async renderUserAgent(page: Page): Promise<string> {
    if (!this.userAgent) {
      this.userAgent = browserUserAgent(await page.browser().userAgent());
    }
    return this.userAgent;
  }
}
