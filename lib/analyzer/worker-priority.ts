import { readlinkSync } from "node:fs";
import os from "node:os";

/**
 * How much less CPU an analysis thread asks for than the thread that serves requests (nice +10).
 * On two cores, two workers analysing big pages would otherwise share the CPU evenly with the event
 * loop, and every health probe, limiter answer and small request waited its turn behind them (issue 12:
 * /api/v1/health p99 under six clients pasting 1.9 MB pages). With the workers niced the kernel runs
 * the event loop first whenever it has work; the workers still get every cycle it leaves, so an
 * analysis alone on the machine is as fast as before. Measured (four runs each, health probed from its
 * own process while six clients paste www.reddit.com): p99 24–40 ms and max 53–75 ms without, p99 26–35
 * ms and max 49–63 ms with; a small gain, because V8's GC helper threads (shared by every isolate, not
 * niced) still compete.
 */
export const WORKER_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority by WORKER_NICE. Linux only: a thread's id is read from
 * /proc/thread-self, and setpriority() with a thread id changes that thread alone. Elsewhere (or where
 * the call is not allowed) it does nothing and says so by returning false.
 */
export function lowerThreadPriority(nice = WORKER_NICE): boolean {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    os.setPriority(threadId, Math.min(19, os.getPriority(threadId) + nice));
    return true;
  } catch {
    return false;
  }
}
