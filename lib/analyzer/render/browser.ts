import { existsSync } from "node:fs";
import puppeteer, { type Browser, type LaunchOptions } from "puppeteer-core";
import type { Config } from "@/lib/config";
import { proxyLaunchArgs } from "@/lib/net/filtering-proxy";
import { DESKTOP_VIEWPORT } from "@/lib/analyzer/render/viewport";
import { SYSTEM_FULL_BROWSERS, SYSTEM_HEADLESS_SHELL } from "@/lib/analyzer/render/system-browsers";
import { withTimeout } from "@/lib/timeout";

/**
 * One warm Chromium per process, found in this order: BROWSER_WS_ENDPOINT (connect to a remote
 * browser), PUPPETEER_EXECUTABLE_PATH, @sparticuz/chromium, then the system's chromium/chrome.
 *
 * A local browser is launched over a pipe (no DevTools port anyone else could open), headless,
 * with every egress forced through the filtering proxy. A remote browser cannot be given launch
 * flags, so each render's incognito context carries the proxy instead (see renderer.ts); the remote
 * browser must then be able to reach this process's proxy port (FilteringProxy `bindHost` /
 * `advertiseHost`).
 *
 * If the browser crashes or disconnects, the next `get()` launches (or connects) a new one.
 */

/**
 * The browser's own omnibox popup: a chrome:// WebUI page in a renderer of its own, which Chromium 156
 * builds and preloads for every window a render opens and every page that stays open (about 0.3 CPU s
 * each; `npm run bench:browser-ui` measures it against a browser with them on).
 */
export const BROWSER_UI_FEATURES: readonly string[] = [
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "PreloadTopChromeWebUI",
];

/** Chromium features a headless renderer has no use for; each costs CPU or background traffic. */
const DISABLED_FEATURES = [
  ...BROWSER_UI_FEATURES,
  "Translate",
  "MediaRouter",
  "DialMediaRouteProvider",
  "OptimizationHints",
  "AutofillServerCommunication",
  "CertificateTransparencyComponentUpdater",
  "InterestFeedContentSuggestions",
  "PrivacySandboxSettings4",
];

/** Flags every local launch gets. The first line is required in our containers; the rest cut background traffic. */
export const BASE_CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--no-default-browser-check",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--metrics-recording-only",
  "--no-pings",
  "--mute-audio",
  "--hide-scrollbars",
  "--disable-dev-shm-usage",
  "--password-store=basic",
  "--use-mock-keychain",
  // One flag: Chromium keeps only the last --disable-features (Puppeteer merges its own list into it).
  `--disable-features=${DISABLED_FEATURES.join(",")}`,
];

/**
 * The @sparticuz/chromium flags we keep. Its list also carries --single-process (breaks incognito
 * contexts), --disable-web-security and --disable-site-isolation-trials (weaken the page sandbox);
 * we only take what its Lambda build needs to draw and start.
 */
const SPARTICUZ_KEEP = [
  "--use-gl=",
  "--use-angle=",
  "--enable-unsafe-swiftshader",
  "--in-process-gpu",
  "--no-zygote",
  "--font-render-hinting=",
];

/** Where a browser comes from. */
export type BrowserSource =
  | { kind: "remote"; wsEndpoint: string }
  | {
      kind: "local";
      executablePath: string;
      extraArgs: string[];
      headless: LaunchOptions["headless"];
      origin: "env" | "sparticuz" | "system";
    };

/**
 * A browser binary on this machine. A headless-shell binary is told so: Puppeteer's `true` asks a full
 * browser for its new headless mode.
 */
function localSource(executablePath: string, origin: "env" | "system"): BrowserSource {
  const headless = /headless[-_]shell/.test(executablePath) ? "shell" : true;
  return { kind: "local", executablePath, extraArgs: [], headless, origin };
}

/** Options of BrowserManager. */
export interface BrowserManagerOptions {
  config: Pick<Config, "BROWSER_WS_ENDPOINT" | "PUPPETEER_EXECUTABLE_PATH">;
  /** The filtering proxy's default listener, forced on a launched browser by flags. */
  proxyUrl: string;
  /** Extra launch flags (tests). */
  extraArgs?: string[];
  /** Launch/connect timeout, ms (default 30,000). */
  launchTimeoutMs?: number;
  /** CDP call timeout, ms (default 30,000): a hung browser must not hang a request forever. */
  protocolTimeoutMs?: number;
}

async function sparticuzSource(): Promise<BrowserSource | null> {
  try {
    const { default: chromium } = await import("@sparticuz/chromium");
    const executablePath = await chromium.executablePath();
    if (!executablePath || !existsSync(/*turbopackIgnore: true*/ executablePath)) return null;
    const extraArgs = chromium.args.filter((arg) =>
      SPARTICUZ_KEEP.some((keep) => arg === keep || (keep.endsWith("=") && arg.startsWith(keep))),
    );
    return { kind: "local", executablePath, extraArgs, headless: "shell", origin: "sparticuz" };
  } catch {
    return null;
  }
}

/** The browser sources to try, best first. */
export async function browserSources(config: BrowserManagerOptions["config"]): Promise<BrowserSource[]> {
  if (config.BROWSER_WS_ENDPOINT) return [{ kind: "remote", wsEndpoint: config.BROWSER_WS_ENDPOINT }];
  if (config.PUPPETEER_EXECUTABLE_PATH) return [localSource(config.PUPPETEER_EXECUTABLE_PATH, "env")];
  // turbopackIgnore: probing a browser binary is not a file the server bundle needs to trace.
  const installed = (paths: readonly string[]) =>
    paths.filter((path) => existsSync(/*turbopackIgnore: true*/ path)).map((path) => localSource(path, "system"));
  const sparticuz = await sparticuzSource();
  return [
    // Debian's headless shell: the same Blink and V8 as the full browser without its windowing and UI.
    // Launches and renders cost it about a third of the full browser's CPU (docs/operations.md).
    ...installed([SYSTEM_HEADLESS_SHELL]),
    ...(sparticuz ? [sparticuz] : []),
    ...installed(SYSTEM_FULL_BROWSERS),
  ];
}

/** Kills a launched browser's whole process group (renderers, GPU, zygote), not just the main process. */
function killProcessTree(browser: Browser): void {
  const child = browser.process();
  if (!child?.pid) return;
  try {
    // puppeteer launches detached, so the pid is also the process-group id.
    process.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Owns the process's one warm browser. */
export class BrowserManager {
  private current: Promise<Browser> | null = null;
  private chosen: BrowserSource | null = null;
  private closing = false;

  constructor(private readonly options: BrowserManagerOptions) {}

  /** true when the browser is remote (contexts must carry the proxy themselves). */
  get isRemote(): boolean {
    return Boolean(this.options.config.BROWSER_WS_ENDPOINT);
  }

  /** The source in use, once a browser has started. */
  get source(): BrowserSource | null {
    return this.chosen;
  }

  /** The warm browser, launching or reconnecting when there is none or it died. */
  async get(): Promise<Browser> {
    if (this.closing) throw new Error("The browser is shutting down.");
    if (this.current) {
      const browser = await this.current.catch(() => null);
      if (browser?.connected) return browser;
      this.current = null;
    }
    const starting = this.start();
    this.current = starting;
    starting.catch(() => {
      if (this.current === starting) this.current = null;
    });
    return starting;
  }

  private async start(): Promise<Browser> {
    const sources = this.chosen ? [this.chosen] : await browserSources(this.options.config);
    if (sources.length === 0) {
      throw new Error("No browser found: set BROWSER_WS_ENDPOINT or PUPPETEER_EXECUTABLE_PATH, or install chromium.");
    }
    let lastError: unknown = null;
    for (const source of sources) {
      try {
        const browser = await this.open(source);
        this.chosen = source;
        browser.once("disconnected", () => {
          if (this.current) {
            void this.current.then(
              (live) => {
                if (live === browser) this.current = null;
              },
              () => undefined,
            );
          }
        });
        return browser;
      } catch (error) {
        lastError = error;
      }
    }
    throw new Error(
      `Could not start a browser: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
      { cause: lastError },
    );
  }

  private async open(source: BrowserSource): Promise<Browser> {
    const protocolTimeout = this.options.protocolTimeoutMs ?? 30_000;
    const defaultViewport = { ...DESKTOP_VIEWPORT };
    if (source.kind === "remote") {
      return puppeteer.connect({ browserWSEndpoint: source.wsEndpoint, protocolTimeout, defaultViewport });
    }
    return puppeteer.launch({
      executablePath: source.executablePath,
      headless: source.headless,
      // A pipe instead of a DevTools port: nothing else on the host can drive this browser, and the
      // browser exits by itself when this process dies (its end of the pipe closes).
      pipe: true,
      args: [
        ...BASE_CHROMIUM_ARGS,
        ...source.extraArgs,
        ...proxyLaunchArgs(this.options.proxyUrl),
        ...(this.options.extraArgs ?? []),
      ],
      // The server owns signal handling and closes the browser through the analyzer's shutdown hook; puppeteer's SIGINT handler would
      // process.exit() in the middle of a graceful shutdown. Its exit hook still kills the child.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: this.options.launchTimeoutMs ?? 30_000,
      protocolTimeout,
      defaultViewport,
    });
  }

  /**
   * Ends a hung browser now: SIGKILL to the process group (local) or a disconnect (remote).
   * The next get() starts a fresh one.
   */
  async kill(): Promise<void> {
    const browser = await this.releaseLocal();
    if (browser) killProcessTree(browser);
  }

  /** Graceful close: lets Chromium exit (bounded), then makes sure no process is left behind. */
  async close(): Promise<void> {
    this.closing = true;
    const browser = await this.releaseLocal();
    if (!browser) return;
    await withTimeout(
      browser.close().catch(() => undefined),
      3_000,
    );
    killProcessTree(browser);
  }

  /**
   * Forgets the current browser. A remote one is only disconnected (never close a shared remote
   * browser) and null comes back; a local one is returned for the caller to end.
   */
  private async releaseLocal(): Promise<Browser | null> {
    const pending = this.current;
    this.current = null;
    const browser = await pending?.catch(() => null);
    if (!browser) return null;
    if (this.isRemote) {
      await browser.disconnect().catch(() => undefined);
      return null;
    }
    return browser;
  }
}
