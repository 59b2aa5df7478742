import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { log } from "@/lib/log";

/**
 * The main thread's event-loop delay, logged every REPORT_MS while requests come in: its max is the
 * longest stretch of synchronous work (or GC) any request waited behind, so health under a saturated
 * analyzer (docs/performance.md "Issue 28") can be read from the server's own log, and the benchmark reports it
 * beside the health row. The window's garbage-collection pauses of this thread are beside it, so a
 * stall can be told apart from synchronous work. One line per window with requests; nothing while idle.
 */

const REPORT_MS = 5_000;
/** The sampling timer's period (ms): a stall shorter than this is not seen. */
const RESOLUTION_MS = 5;

export interface EventLoopReporter {
  /** Count one request (the report says how many the window had). */
  request(): void;
  stop(): void;
}

export function reportEventLoopDelay(): EventLoopReporter {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let requests = 0;
  const gc = { count: 0, totalMs: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e5) / 10;
  const timer = setInterval(() => {
    if (requests > 0) {
      // The histogram counts the timer's own period in every sample: what is left is the delay.
      const delay = (value: number) => Math.max(0, ms(value) - RESOLUTION_MS);
      log.info(
        {
          requests,
          eventLoopDelayMs: {
            p50: delay(histogram.percentile(50)),
            p99: delay(histogram.percentile(99)),
            max: delay(histogram.max),
          },
          gc: { count: gc.count, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs) },
          windowMs: REPORT_MS,
        },
        "event loop",
      );
    }
    requests = 0;
    Object.assign(gc, { count: 0, totalMs: 0, maxMs: 0 });
    histogram.reset();
  }, REPORT_MS);
  timer.unref();
  return {
    request: () => void (requests += 1),
    stop: () => {
      clearInterval(timer);
      observer.disconnect();
      histogram.disable();
    },
  };
}
