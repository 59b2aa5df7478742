import { raceTimeout } from "@/lib/timeout";
import type { Clock, LimitLog, LimitResult, LimitStore } from "./types";

/** Tuning of {@link ResilientStore}. */
export interface ResilienceOptions {
  /** Longest wait for the shared store per call before answering from the fallback. */
  timeoutMs: number;
  /** After a failure, how long to answer from the fallback before asking the shared store again. */
  cooldownMs: number;
  log: LimitLog;
  now: Clock;
}

/**
 * Asks the shared store (Upstash) and, when it fails or is slower than `timeoutMs`, answers that call from
 * the in-process store instead: never a thrown error, never "no limits" (decisions.md). During an outage it
 * stays on the fallback for `cooldownMs` between probes so each request does not pay the full timeout, then
 * probes again with the next real call and returns to the shared store as soon as one succeeds.
 * Logs once when an outage starts and once when it ends.
 */
export class ResilientStore implements LimitStore {
  private outageSince: number | undefined;
  private nextProbe = 0;

  constructor(
    private readonly primary: LimitStore,
    private readonly fallback: LimitStore,
    private readonly options: ResilienceOptions,
  ) {}

  /** True while calls are being answered by the fallback store. */
  get degraded(): boolean {
    return this.outageSince !== undefined;
  }

  checkRequest(clientKey: string): Promise<LimitResult> {
    return this.run((store) => store.checkRequest(clientKey));
  }

  peekRequest(clientKey: string): Promise<LimitResult> {
    return this.run((store) => store.peekRequest(clientKey));
  }

  consumeBudget(): Promise<LimitResult> {
    return this.run((store) => store.consumeBudget());
  }

  private async run(call: (store: LimitStore) => Promise<LimitResult>): Promise<LimitResult> {
    const { now, log, timeoutMs, cooldownMs } = this.options;
    if (this.outageSince !== undefined && now() < this.nextProbe) return call(this.fallback);
    try {
      const result = await raceTimeout(
        call(this.primary),
        timeoutMs,
        () => new Error(`no answer within ${timeoutMs} ms`),
      );
      if (this.outageSince !== undefined) {
        log("info", "Rate-limit store: Upstash Redis answers again; shared limits restored.", {
          outageMs: now() - this.outageSince,
        });
        this.outageSince = undefined;
      }
      return result;
    } catch (error) {
      if (this.outageSince === undefined) {
        this.outageSince = now();
        log("warn", "Rate-limit store: Upstash Redis unreachable; enforcing limits in-process until it answers.", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      this.nextProbe = now() + cooldownMs;
      return call(this.fallback);
    }
  }
}
