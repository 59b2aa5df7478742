import { ApiError } from "@/lib/errors";

/**
 * Admission to the analysis workers, fair between clients. Without it one client could fill every
 * worker with hostile pastes (each pinned for the whole time cap) and stall everyone else, URL mode
 * included. The rules:
 *  - at most `maxRunningPerClient` (default one) running jobs per client key; a client's further jobs
 *    wait their turn (a few at most, beyond that 429), so other clients' jobs go first;
 *  - a per-client budget of worker time in a sliding window: a client that used it answers 429 until
 *    enough of it has aged out (Retry-After says when);
 *  - lanes: pastes may use every worker but `reservedForUrl`, so URL mode (already paid for with a
 *    render) never queues behind pastes, and waiting URL jobs are started first.
 * Pure bookkeeping with an injectable clock; the pool does the work.
 */

export type Lane = "url" | "paste";

/** Past this many clients with recorded usage, expired entries are swept on release. */
const MAX_TRACKED_CLIENTS = 1_000;

export interface FairQueueOptions {
  /** Jobs that may run at once (the pool's worker threads). */
  slots: number;
  /** Slots pastes may not take (default 1 when there are at least 2 slots, else 0). */
  reservedForUrl?: number;
  /** Jobs waiting in all (default 64); beyond it 429. */
  maxWaiting?: number;
  /** Jobs one client may have waiting (default 4); beyond it 429. */
  maxWaitingPerClient?: number;
  /** Jobs one client may have running at once (default 1). */
  maxRunningPerClient?: number;
  /** Worker time one client may use per window, ms. */
  budgetMs: number;
  /** The budget's sliding window, ms (default 60,000). */
  windowMs?: number;
  now?: () => number;
}

export interface AdmissionRequest {
  key: string;
  lane: Lane;
  /** Internal jobs (warm-up, scripts) without a client: no budget is kept for them. */
  unmetered?: boolean;
  /** Aborting gives up the place in the line (rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** A running job's slot. Call release exactly once, with the worker time the job used. */
export interface Lease {
  release(workerMs: number): void;
}

interface Ticket {
  key: string;
  lane: Lane;
  unmetered: boolean;
  start: () => void;
}

export class FairQueue {
  private readonly slots: number;
  private readonly reservedForUrl: number;
  private readonly maxWaiting: number;
  private readonly maxWaitingPerClient: number;
  private readonly maxRunningPerClient: number;
  private readonly budgetMs: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly waiting: Ticket[] = [];
  private readonly runningPerKey = new Map<string, number>();
  private runningPaste = 0;
  private runningUrl = 0;
  /** Worker time per client: [finishedAt, ms] entries inside the window. */
  private readonly usage = new Map<string, Array<[number, number]>>();

  constructor(options: FairQueueOptions) {
    this.slots = options.slots;
    this.reservedForUrl = Math.min(options.reservedForUrl ?? (options.slots >= 2 ? 1 : 0), options.slots - 1);
    this.maxWaiting = options.maxWaiting ?? 64;
    this.maxWaitingPerClient = options.maxWaitingPerClient ?? 4;
    this.maxRunningPerClient = options.maxRunningPerClient ?? 1;
    this.budgetMs = options.budgetMs;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Jobs running / waiting (metrics and tests). */
  get running(): number {
    return this.runningPaste + this.runningUrl;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Clients with usage on record (tests and metrics). */
  get trackedClients(): number {
    return this.usage.size;
  }

  /** Worker time `key` used inside the current window, ms. */
  usedMs(key: string): number {
    const entries = this.prune(key);
    return entries.reduce((sum, [, ms]) => sum + ms, 0);
  }

  /**
   * The 429 that `acquire` would answer `key` right now (its budget spent, or a waiting line full), or
   * null. Callers may ask before they take on work for a job, e.g. before reading a large request body;
   * acquire asks again, so a job admitted here may still be refused a moment later.
   */
  refusal(key: string): ApiError | null {
    if (this.usedMs(key) >= this.budgetMs) return this.overBudget(key);
    if (this.waiting.length >= this.maxWaiting) return busy("Too many analyses are waiting.");
    if (this.waiting.filter((ticket) => ticket.key === key).length >= this.maxWaitingPerClient) {
      return busy("You already have analyses waiting; wait for them to finish.");
    }
    return null;
  }

  /**
   * Waits for a slot under the rules above.
   * @throws ApiError RATE_LIMITED when the client's budget is spent or a waiting line is full.
   */
  async acquire(request: AdmissionRequest): Promise<Lease> {
    request.signal?.throwIfAborted();
    const refused = this.refusal(request.key);
    if (refused) throw refused;
    return new Promise<Lease>((resolve, reject) => {
      const ticket: Ticket = {
        key: request.key,
        lane: request.lane,
        unmetered: request.unmetered === true,
        start: () => {
          request.signal?.removeEventListener("abort", onAbort);
          resolve(this.lease(ticket));
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(ticket);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(request.signal?.reason);
      };
      request.signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(ticket);
      this.pump();
    });
  }

  private lease(ticket: Ticket): Lease {
    let released = false;
    return {
      release: (workerMs: number) => {
        if (released) return;
        released = true;
        const running = (this.runningPerKey.get(ticket.key) ?? 1) - 1;
        if (running > 0) this.runningPerKey.set(ticket.key, running);
        else this.runningPerKey.delete(ticket.key);
        if (ticket.lane === "url") this.runningUrl -= 1;
        else this.runningPaste -= 1;
        if (!ticket.unmetered) {
          const entries = this.usage.get(ticket.key) ?? [];
          entries.push([this.now(), Math.max(0, workerMs)]);
          this.usage.set(ticket.key, entries);
          // Clients that never come back would otherwise stay in the map forever.
          if (this.usage.size > MAX_TRACKED_CLIENTS) for (const key of [...this.usage.keys()]) this.prune(key);
        }
        this.pump();
      },
    };
  }

  /** Starts waiting jobs while slots last: URL jobs first, then in arrival order, within each client's share. */
  private pump(): void {
    while (this.running < this.slots) {
      const pasteRoom = this.runningPaste < this.slots - this.reservedForUrl;
      const eligible = (ticket: Ticket) =>
        (this.runningPerKey.get(ticket.key) ?? 0) < this.maxRunningPerClient && (ticket.lane === "url" || pasteRoom);
      let index = this.waiting.findIndex((ticket) => ticket.lane === "url" && eligible(ticket));
      if (index === -1) index = this.waiting.findIndex(eligible);
      if (index === -1) return;
      const [ticket] = this.waiting.splice(index, 1);
      if (!ticket) return;
      this.runningPerKey.set(ticket.key, (this.runningPerKey.get(ticket.key) ?? 0) + 1);
      if (ticket.lane === "url") this.runningUrl += 1;
      else this.runningPaste += 1;
      ticket.start();
    }
  }

  private prune(key: string): Array<[number, number]> {
    const entries = this.usage.get(key);
    if (!entries) return [];
    const since = this.now() - this.windowMs;
    while (entries.length > 0 && (entries[0]?.[0] ?? 0) <= since) entries.shift();
    if (entries.length === 0) this.usage.delete(key);
    return entries;
  }

  private overBudget(key: string): ApiError {
    // Retry when enough of the oldest usage has aged out to bring the client under its budget.
    const entries = this.prune(key);
    let excess = this.usedMs(key) - this.budgetMs;
    let retryAt = this.now() + this.windowMs;
    for (const [at, ms] of entries) {
      excess -= ms;
      if (excess < 0) {
        retryAt = at + this.windowMs;
        break;
      }
    }
    const seconds = Math.max(1, Math.ceil((retryAt - this.now()) / 1000));
    return new ApiError("RATE_LIMITED", "You used your share of the analyzer for now.", {
      hint: `Each client may use ${Math.round(this.budgetMs / 1000)} s of analysis time per ${Math.round(this.windowMs / 1000)} s; retry in ${seconds} s.`,
      headers: { "Retry-After": String(seconds) },
    });
  }
}

/** 429 for a full waiting line. */
export function busy(message = "The analyzer is busy; too many analyses are waiting."): ApiError {
  return new ApiError("RATE_LIMITED", message, { hint: "Retry in a few seconds.", headers: { "Retry-After": "5" } });
}
