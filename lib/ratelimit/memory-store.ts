import type { MonthlyBudgetPolicy, Policies, WindowPolicy } from "./policies";
import { monthKey, nextMonthStartSeconds, resetForLog } from "./time";
import type { Clock, LimitResult, LimitStore } from "./types";

/**
 * In-process store: an exact sliding log per key (at most `limit` timestamps each, since refused requests
 * are not logged) and one counter per UTC month. Used alone on a single instance, and as the fallback of
 * the Upstash store while Redis is unreachable. State lives only as long as the process.
 */
export class MemoryStore implements LimitStore {
  private readonly logs = new Map<string, number[]>();
  private readonly months = new Map<string, number>();
  private nextSweep = 0;

  constructor(
    private readonly policies: Policies,
    private readonly now: Clock = Date.now,
  ) {}

  async checkRequest(clientKey: string): Promise<LimitResult> {
    const policy = this.policies.ip;
    const now = this.now();
    this.sweep(now, policy);
    const log = this.liveLog(clientKey, policy, now);
    const allowed = log.length < policy.limit;
    if (allowed) {
      log.push(now);
      this.logs.set(clientKey, log);
    }
    return {
      allowed,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - log.length),
      reset: resetForLog(log, policy.limit, policy.windowSeconds * 1000, now),
      reason: "ip",
    };
  }

  async peekRequest(clientKey: string): Promise<LimitResult> {
    const policy = this.policies.ip;
    const now = this.now();
    const log = this.liveLog(clientKey, policy, now);
    return {
      allowed: log.length < policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - log.length),
      reset: resetForLog(log, policy.limit, policy.windowSeconds * 1000, now),
      reason: "ip",
    };
  }

  async consumeBudget(): Promise<LimitResult> {
    const policy: MonthlyBudgetPolicy = this.policies.budget;
    const now = this.now();
    const month = monthKey(now);
    // Only the current month matters; dropping the others keeps the map at one entry.
    for (const key of this.months.keys()) if (key !== month) this.months.delete(key);
    const used = this.months.get(month) ?? 0;
    const allowed = used < policy.limit;
    if (allowed) this.months.set(month, used + 1);
    return {
      allowed,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - (allowed ? used + 1 : used)),
      reset: nextMonthStartSeconds(now),
      reason: "budget",
    };
  }

  /** The key's timestamps still inside the window (a request at t counts while now < t + window). */
  private liveLog(clientKey: string, policy: WindowPolicy, now: number): number[] {
    const windowStart = now - policy.windowSeconds * 1000;
    const log = (this.logs.get(clientKey) ?? []).filter((t) => t > windowStart);
    if (log.length === 0) this.logs.delete(clientKey);
    return log;
  }

  /** Drops idle keys once per window so a stream of one-off IPs cannot grow the map without bound. */
  private sweep(now: number, policy: WindowPolicy): void {
    if (now < this.nextSweep) return;
    const windowMs = policy.windowSeconds * 1000;
    this.nextSweep = now + windowMs;
    for (const [key, log] of this.logs) {
      const newest = log[log.length - 1];
      if (newest === undefined || newest <= now - windowMs) this.logs.delete(key);
    }
  }
}
