/**
 * What a page can still change, seen from inside the page. Installed before any page script runs
 * (evaluateOnNewDocument, every frame), it keeps a list of the page's OPEN WORK, each entry a thing
 * that can still add a link when it completes:
 *
 *  - a `setTimeout` callback not run yet, a short `setInterval`'s next tick, a `requestAnimationFrame` or
 *    `requestIdleCallback` callback, but only while its CHAIN is young (below);
 *  - a `fetch()` not settled, a body read (`response.json()`, `.text()`, …) not settled, an XHR not ended;
 *  - a `<script src>` inserted into the document (or a shadow root a script attached) and not loaded (or
 *    failed) yet.
 *
 * Chains: a timer set while another timer's (or frame's) callback runs belongs to that callback's chain,
 * whose age counts from the first callback's registration. Work is open only while it is due within
 * `chainMs` of its chain's start (frames: registered within `frameMs`), so a page that keeps rescheduling
 * itself (a ticker, a carousel, a polling loop, an animation) is waited for during its first moments and
 * then no more. An interval longer than `shortIntervalMs` is never waited for (tickers, carousels,
 * analytics pings); a shorter one (waiting for something to be ready) is, while its chain is young.
 *
 * It also records the last ACTIVITY: a DOM change that can matter to the analysis (nodes, text, and the
 * attributes links, anchors and robots meta are read from; not class or style, which animations change
 * every frame), in the document or in a shadow root a script attached; the end of any open work; and an
 * IntersectionObserver callback (content that came into view, render/viewport.ts). The renderer (settle.ts) reads both through `readActivity`.
 * The tracker only observes: the wrappers are Proxies of the native functions (they still look native
 * to page scripts), they never throw into the page, and the page's callbacks run exactly as before.
 */

/** How long the tracker waits for work, picked by the renderer (settle.ts has the defaults and the why). */
export interface TrackerLimits {
  /** A timer (or short interval tick, idle callback) is open work when due within this of its chain's start. */
  chainMs: number;
  /** A requestAnimationFrame callback is open work when registered within this of its chain's start. */
  frameMs: number;
  /** Intervals with a longer period are never open work. */
  shortIntervalMs: number;
  /** No entry stays open longer than this (a request the network never ends is bounded by the settle cap anyway). */
  maxOpenMs: number;
}

/** What readActivity reports: ms since the last activity, and the open work (how many entries, and of which kinds). */
export interface ActivityReport {
  quietMs: number;
  open: number;
  /** Open entries by kind (timer, interval, frame, idle, fetch, body, xhr, script): what the render is waiting for. */
  kinds?: Record<string, number>;
}

// A name no page will use; the property is non-enumerable, so page scripts iterating window do not see it.
export const TRACKER_KEY = "__linklensActivity_7f3a9c";

/** The attributes whose changes can change what the analysis reads (links, anchor text, robots, canonical, base). */
const WATCHED_ATTRIBUTES = ["href", "rel", "alt", "aria-label", "title", "content", "name", "src"];

/**
 * The in-page tracker (serialized by Puppeteer: it must not reference anything outside its body). Never
 * throws into the page.
 */
export function activityTracker(key: string, limits: TrackerLimits, watchedAttributes: string[]): void {
  try {
    const now = () => performance.now();
    const nativeThen = Promise.prototype.then;
    const nativeSetTimeout = window.setTimeout;
    const nativeClearTimeout = window.clearTimeout;
    const nativeSetInterval = window.setInterval;
    const nativeClearInterval = window.clearInterval;
    // entry id → [the time after which it no longer counts whatever happened to it, its kind].
    const open = new Map<number, [number, string]>();
    const state = { lastActivity: now(), open, root: null as number | null };
    Object.defineProperty(window, key, { value: state, enumerable: false, configurable: false, writable: false });
    let nextEntry = 1;
    const begin = (openForMs: number, kind: string): number => {
      const entry = nextEntry++;
      open.set(entry, [now() + Math.min(openForMs, limits.maxOpenMs), kind]);
      return entry;
    };
    const end = (entry: number, activity: boolean): void => {
      if (open.delete(entry) && activity) state.lastActivity = now();
    };
    // Ends an entry once the current task and its microtasks are done: the page's own `.then` of a
    // fetch (render the list) runs in the same task, so the entry outlives it.
    const endLater = (entry: number): void => {
      Reflect.apply(nativeSetTimeout, window, [() => end(entry, true), 0]);
    };
    // Runs a page callback inside its chain: timers it sets inherit the chain's start.
    const inChain = (
      root: number,
      callback: (...args: unknown[]) => unknown,
      thisArg: unknown,
      args: unknown[],
    ): unknown => {
      const previous = state.root;
      state.root = root;
      try {
        return Reflect.apply(callback, thisArg, args);
      } finally {
        state.root = previous;
      }
    };

    const watching: MutationObserverInit = {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: watchedAttributes,
    };
    const domWatch = new MutationObserver((records) => {
      state.lastActivity = now();
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          const scripts = node instanceof HTMLScriptElement ? [node] : Array.from(node.getElementsByTagName("script"));
          for (const script of scripts) watchScript(script);
        }
      }
    });
    domWatch.observe(document, watching);
    // A subtree observer stops at shadow roots: each root a script attaches is watched too (its links
    // are links of the page). Roots the parser attached are static markup until a script changes them.
    const nativeAttachShadow = Element.prototype.attachShadow;
    Element.prototype.attachShadow = new Proxy(nativeAttachShadow, {
      apply(target, thisArg, args: unknown[]) {
        const root = Reflect.apply(target, thisArg, args) as ShadowRoot;
        try {
          domWatch.observe(root, watching);
        } catch {
          // Never in the page's way.
        }
        return root;
      },
    });
    // What a page does when its content comes into view (lazy lists, "related posts") starts in an
    // IntersectionObserver callback, and often ends in a task the tracker cannot see (a framework's
    // scheduled render): the callback itself is activity, so the idle window follows it.
    const NativeIntersectionObserver = window.IntersectionObserver;
    if (typeof NativeIntersectionObserver === "function") {
      window.IntersectionObserver = new Proxy(NativeIntersectionObserver, {
        construct(target, args: unknown[], newTarget) {
          const callback = args[0];
          if (typeof callback === "function") {
            args[0] = function (this: unknown, ...rest: unknown[]) {
              try {
                return Reflect.apply(callback as (...a: unknown[]) => unknown, this, rest);
              } finally {
                state.lastActivity = now();
              }
            };
          }
          return Reflect.construct(target, args, newTarget) as object;
        },
      });
    }

    const JS_TYPES = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;
    const watched = new WeakSet<HTMLScriptElement>();
    function watchScript(script: HTMLScriptElement): void {
      // Only scripts the browser will fetch and then fire load or error on.
      if (
        watched.has(script) ||
        !script.getAttribute("src") ||
        script.hasAttribute("nomodule") ||
        !JS_TYPES.test((script.getAttribute("type") ?? "").trim())
      )
        return;
      watched.add(script);
      const entry = begin(limits.maxOpenMs, "script");
      const done = () => endLater(entry);
      script.addEventListener("load", done, { once: true });
      script.addEventListener("error", done, { once: true });
    }

    // Timers: the id space of setTimeout and setInterval is shared (either clear function clears both).
    const timers = new Map<number, { entry: number; cleared: boolean }>();
    const clearTimer = (id: unknown) => {
      const timer = timers.get(Number(id));
      if (!timer) return;
      timer.cleared = true;
      timers.delete(Number(id));
      end(timer.entry, false);
    };
    window.setTimeout = new Proxy(nativeSetTimeout, {
      apply(target, thisArg, args: unknown[]) {
        const delay = Math.max(0, Number(args[1]) || 0);
        const root = state.root ?? now();
        const tracked = now() + delay - root <= limits.chainMs;
        const handler = args[0];
        const timer = { entry: 0, cleared: false };
        let id = 0;
        if (typeof handler === "function") {
          args[0] = function (this: unknown, ...rest: unknown[]) {
            try {
              return inChain(root, handler as (...a: unknown[]) => unknown, this, rest);
            } finally {
              timers.delete(id);
              end(timer.entry, true);
            }
          };
        }
        id = Reflect.apply(target, thisArg, args) as number;
        if (tracked) {
          timer.entry = begin(delay + 1_000, "timer");
          timers.set(id, timer);
          // A string handler cannot be wrapped: a timer of ours, set right after it with the same delay, fires right after it.
          if (typeof handler !== "function")
            Reflect.apply(target, window, [() => (timers.delete(id), end(timer.entry, true)), delay]);
        }
        return id;
      },
    });
    window.setInterval = new Proxy(nativeSetInterval, {
      apply(target, thisArg, args: unknown[]) {
        const delay = Math.max(0, Number(args[1]) || 0);
        const root = state.root ?? now();
        const handler = args[0];
        const timer = { entry: 0, cleared: false };
        let id = 0;
        const arm = () => {
          const tracked = !timer.cleared && delay <= limits.shortIntervalMs && now() + delay - root <= limits.chainMs;
          timer.entry = tracked ? begin(delay + 1_000, "interval") : 0;
          if (tracked) timers.set(id, timer);
          else timers.delete(id);
        };
        if (typeof handler === "function") {
          args[0] = function (this: unknown, ...rest: unknown[]) {
            try {
              return inChain(root, handler as (...a: unknown[]) => unknown, this, rest);
            } finally {
              end(timer.entry, true);
              arm();
            }
          };
        }
        id = Reflect.apply(target, thisArg, args) as number;
        arm();
        return id;
      },
    });
    window.clearTimeout = new Proxy(nativeClearTimeout, {
      apply(target, thisArg, args: unknown[]) {
        clearTimer(args[0]);
        return Reflect.apply(target, thisArg, args) as unknown;
      },
    });
    window.clearInterval = new Proxy(nativeClearInterval, {
      apply(target, thisArg, args: unknown[]) {
        clearTimer(args[0]);
        return Reflect.apply(target, thisArg, args) as unknown;
      },
    });

    // Frame and idle callbacks: open while their chain is young; a frame that never comes (a page the
    // browser does not paint) stops counting after a second.
    const callbackWrapper = (
      register: "requestAnimationFrame" | "requestIdleCallback",
      cancel: "cancelAnimationFrame" | "cancelIdleCallback",
      youngMs: number,
      kind: string,
    ) => {
      const nativeRegister = window[register] as ((...args: unknown[]) => number) | undefined;
      const nativeCancel = window[cancel] as ((...args: unknown[]) => void) | undefined;
      if (typeof nativeRegister !== "function" || typeof nativeCancel !== "function") return;
      const entries = new Map<number, number>();
      (window as unknown as Record<string, unknown>)[register] = new Proxy(nativeRegister, {
        apply(target, thisArg, args: unknown[]) {
          const root = state.root ?? now();
          const callback = args[0];
          let id = 0;
          if (typeof callback === "function") {
            args[0] = function (this: unknown, ...rest: unknown[]) {
              try {
                return inChain(root, callback as (...a: unknown[]) => unknown, this, rest);
              } finally {
                const entry = entries.get(id);
                entries.delete(id);
                if (entry !== undefined) end(entry, true);
              }
            };
          }
          id = Reflect.apply(target, thisArg, args) as number;
          if (typeof callback === "function" && now() - root <= youngMs) entries.set(id, begin(1_000, kind));
          return id;
        },
      });
      (window as unknown as Record<string, unknown>)[cancel] = new Proxy(nativeCancel, {
        apply(target, thisArg, args: unknown[]) {
          const entry = entries.get(Number(args[0]));
          entries.delete(Number(args[0]));
          if (entry !== undefined) end(entry, false);
          return Reflect.apply(target, thisArg, args) as unknown;
        },
      });
    };
    callbackWrapper("requestAnimationFrame", "cancelAnimationFrame", limits.frameMs, "frame");
    callbackWrapper("requestIdleCallback", "cancelIdleCallback", limits.chainMs, "idle");

    // Requests the page's scripts wait for, and the reading of their bodies.
    const settles = (promise: unknown, entry: number) => {
      try {
        Reflect.apply(nativeThen, promise, [() => endLater(entry), () => endLater(entry)]);
      } catch {
        endLater(entry);
      }
    };
    const trackPromise = (owner: object, name: string, kind: string) => {
      const native = (owner as Record<string, unknown>)[name];
      if (typeof native !== "function") return;
      (owner as Record<string, unknown>)[name] = new Proxy(native, {
        apply(target, thisArg, args: unknown[]) {
          const entry = begin(limits.maxOpenMs, kind);
          let result: unknown;
          try {
            result = Reflect.apply(target, thisArg, args);
          } catch (error) {
            end(entry, true);
            throw error;
          }
          settles(result, entry);
          return result;
        },
      });
    };
    trackPromise(window, "fetch", "fetch");
    for (const reader of ["json", "text", "arrayBuffer", "blob", "formData", "bytes"])
      trackPromise(Response.prototype, reader, "body");
    const nativeSend = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = new Proxy(nativeSend, {
      apply(target, thisArg: XMLHttpRequest, args: unknown[]) {
        const entry = begin(limits.maxOpenMs, "xhr");
        try {
          thisArg.addEventListener("loadend", () => endLater(entry), { once: true });
          return Reflect.apply(target, thisArg, args) as unknown;
        } catch (error) {
          end(entry, true);
          throw error;
        }
      },
    });
  } catch {
    // A frame without a window or document: nothing to track there.
  }
}

/** Reads the tracker's report in the page (serialized by Puppeteer); null when the tracker is not there. */
export function activityReport(key: string): ActivityReport | null {
  const state = (
    window as unknown as Record<string, { lastActivity: number; open: Map<number, [number, string]> } | undefined>
  )[key];
  if (!state) return null;
  const now = performance.now();
  let open = 0;
  const kinds: Record<string, number> = {};
  for (const [entry, [until, kind]] of state.open) {
    if (until < now) {
      state.open.delete(entry);
      continue;
    }
    open += 1;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return { quietMs: now - state.lastActivity, open, kinds };
}

export { WATCHED_ATTRIBUTES };
