import type { BrowserContext } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import type { Stopwatch, StageTimings } from "@/lib/analyzer/timings";
import { withTimeout } from "@/lib/timeout";

/**
 * The render's hard deadline (see underWatchdog): a render that overruns its timeout has its context
 * closed, and a browser that cannot even do that is killed.
 */

/** How long starting (or reconnecting) the browser may take before the watchdog gives up, ms. */
export const STARTUP_ALLOWANCE_MS = 30_000;

/** Shared by a render and its watchdog. */
export interface RenderHandle {
  context: BrowserContext | null;
  clock: Stopwatch;
  timings: StageTimings;
  /** Called once the page's context exists: the page's own clock starts then (see underWatchdog). */
  ready?: () => void;
}

export function upstream(message: string, cause?: unknown): ApiError {
  return new ApiError("UPSTREAM_ERROR", message, { cause });
}

/** Closes a render's context, bounded; a browser that cannot even do that is killed. */
async function forceStop(handle: RenderHandle, killBrowser: () => Promise<void>): Promise<void> {
  const context = handle.context;
  if (!context) return;
  const closed = await withTimeout(
    context.close().then(
      () => true,
      () => true,
    ),
    2_000,
  );
  if (!closed) await killBrowser();
}

/**
 * Runs one render under a hard deadline of timeout + grace, counted from when its context exists.
 * Past it, the render's context is closed; if even that hangs, the browser is killed (the next
 * render starts a fresh one). Starting a cold browser is not the page's time: on a busy machine a
 * launch took most of a 5 s deadline and a blocked redirect came back as 502 "did not answer in
 * time". Until the context exists the watchdog allows the launch its own timeout instead.
 */
export async function underWatchdog<T>(
  render: () => Promise<T>,
  handle: RenderHandle,
  limits: { timeoutMs: number; graceMs: number },
  signal: AbortSignal | undefined,
  killBrowser: () => Promise<void>,
): Promise<T> {
  signal?.throwIfAborted();
  const job = render();
  job.catch(() => undefined);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    const expire = () => reject(upstream("The page took too long to render."));
    timer = setTimeout(expire, STARTUP_ALLOWANCE_MS + limits.graceMs);
    handle.ready = () => {
      clearTimeout(timer);
      timer = setTimeout(expire, limits.timeoutMs + limits.graceMs);
    };
    onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : upstream("The render was cancelled."));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([job, stop]);
  } catch (error) {
    // The watchdog or the caller stopped us (or the render failed): either way its context must go.
    await forceStop(handle, killBrowser);
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
