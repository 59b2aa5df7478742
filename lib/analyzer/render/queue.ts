import { ApiError } from "@/lib/errors";

/**
 * A counting semaphore with a bounded waiting line. Renders are the expensive part of URL mode,
 * so at most `concurrency` run at once; a few more may wait, and beyond that we answer 429 at once
 * rather than let requests pile up behind a slow page.
 *
 * Two priorities (issue 28): an `interactive` render (a public analysis, a saved audit, "Check now":
 * someone is waiting for it) is started before any waiting `background` render (a scheduled monitor
 * check), whatever their order of arrival. The waiting line's bound counts interactive renders only:
 * background renders are already bounded by their caller (MONITOR_CONCURRENCY per instance), and a
 * monitor backlog must not make the public analyzer answer "queue full".
 */

export type RenderPriority = "interactive" | "background";

interface Waiter {
  priority: RenderPriority;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class RenderQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Renders in progress. */
  get active(): number {
    return this.running;
  }

  /** Renders waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Waits for a slot and returns its release function (call it exactly once, in a finally).
   * @throws ApiError RATE_LIMITED when every slot is busy and the (interactive) waiting line is full.
   */
  async acquire(signal?: AbortSignal, priority: RenderPriority = "interactive"): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) {
      this.running += 1;
      return this.releaser();
    }
    if (
      priority === "interactive" &&
      this.waiting.filter((waiter) => waiter.priority === "interactive").length >= this.maxWaiting
    ) {
      throw new ApiError("RATE_LIMITED", "The render queue is full: too many pages are being analysed right now.", {
        hint: "Retry in a few seconds, or paste the page's HTML instead (paste mode does not use the render queue).",
      });
    }
    await new Promise<void>((resolve, reject) => {
      const entry: Waiter = {
        priority,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // Interactive renders go after the interactive ones already waiting, before every background one.
      const firstBackground = this.waiting.findIndex((waiter) => waiter.priority === "background");
      if (priority === "interactive" && firstBackground !== -1) this.waiting.splice(firstBackground, 0, entry);
      else this.waiting.push(entry);
    });
    // The slot was handed over by release(): `running` was not decremented, so nothing to add here.
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.resolve();
      else this.running -= 1;
    };
  }
}
