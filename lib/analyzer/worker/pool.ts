import os from "node:os";
import { MessageChannel, type MessagePort, type Transferable } from "node:worker_threads";
import path from "node:path";
import { Piscina } from "piscina";
import { ApiError } from "@/lib/errors";
import type { Config } from "@/lib/config";
import { busy, FairQueue, type Lane } from "./fair-queue";
import { epochNow, type StageTimings } from "../timings";
import type { AnalyzeDocumentInput, DocumentReport } from "../types";
import type { PasteBodyRules } from "./paste-body";
import type { RawLinksInput, RawLinksOutcome, RawLinksTask, WorkerOutcome, WorkerTask } from "./entry";
import type { BodyOutcome, BodyTask } from "./body-task";
import type { WorkerFailure, WorkerTiming } from "./outcome";

/**
 * A small pool of worker threads for the analysis pipeline, so one huge or hostile document never
 * stalls other requests. Each job has a time cap (the worker is terminated) and a heap cap (the worker
 * dies of OOM, not the server); both answer 422 UNPROCESSABLE_PAGE.
 *
 * The worker script is lib/analyzer/worker/entry.ts bundled by scripts/build-node.mjs into dist/ (Next's
 * bundler does not produce worker entry points).
 */

export interface PoolOptions {
  filename?: string;
  threads?: number;
  timeoutMs?: number;
  maxHeapMb?: number;
  maxQueue?: number;
  /** Worker time one client may use per minute, ms (default 2 × timeoutMs); see fair-queue.ts. */
  clientBudgetMs?: number;
  /** Jobs one client may have waiting (default 4). */
  maxQueuedPerClient?: number;
  /** Jobs one client may have running at once (default 1). */
  maxRunningPerClient?: number;
  /** Timers for the caps (tests inject them to observe when a cap starts); default the global ones. */
  timers?: { setTimeout: (callback: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void };
  now?: () => number;
}

/** Per-job options of AnalyzerPool.analyze. */
export interface AnalyzeJobOptions {
  /** The client's rate-limit key: one running job per key, and a worker-time budget per key. */
  clientKey?: string;
  /** "url" for URL-mode extraction (a reserved worker, started first); default "paste". */
  lane?: Lane;
  /** The caller gave up (the client went away): the job leaves the line or its worker is stopped, and analyze rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Filled in with where the job's time went (queue, transfers, the worker's stages) and its peak heap. */
  timing?: JobTiming;
}

/** What AnalyzerPool.analyze tells about one job's time (see timings.ts). */
export interface JobTiming {
  timings: StageTimings;
  peakHeapMb?: number;
}

/** How long a job may wait for a worker before the pool answers "busy" (429). */
const MAX_QUEUE_WAIT_MS = 30_000;

/**
 * The young generation a worker may grow to, MiB: an eighth of its heap cap, between 16 and 192.
 * Nearly everything an analysis allocates (jsdom's nodes and their wrappers) lives until the document
 * is released, so V8's scavenger copies it once or twice before promoting it; with the default 32 MiB
 * the 1.9 MiB link-dense page ran ~120 scavenges (750 ms, a quarter of the job), with 192 MiB ~35
 * (570 ms) and fewer full collections (docs/performance.md "Issue 12"). The young generation only
 * grows under such allocation, so small pages pay nothing for the headroom.
 */
export function youngGenerationMb(maxHeapMb: number): number {
  return Math.min(192, Math.max(16, Math.round(maxHeapMb / 8)));
}

export const DEFAULT_WORKER_FILE = path.join(process.cwd(), "dist", "analyzer-worker.cjs");

export class AnalyzerPool {
  private readonly pool: Piscina;
  private readonly timeoutMs: number;
  private readonly queue: FairQueue;
  private readonly timers: NonNullable<PoolOptions["timers"]>;
  private readonly now: () => number;
  private anonymous = 0;

  constructor(options: PoolOptions = {}) {
    const threads = options.threads ?? Math.max(2, Math.min(4, os.availableParallelism()));
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
    this.now = options.now ?? (() => performance.now());
    // Jobs reach Piscina only when a thread is free (the fair queue holds the rest), so Piscina's own
    // queue only ever holds a job whose worker is being replaced.
    this.queue = new FairQueue({
      slots: threads,
      maxWaiting: options.maxQueue ?? 64,
      maxWaitingPerClient: options.maxQueuedPerClient,
      maxRunningPerClient: options.maxRunningPerClient,
      budgetMs: options.clientBudgetMs ?? 2 * this.timeoutMs,
      now: options.now,
    });
    const maxHeapMb = options.maxHeapMb ?? 1536;
    this.pool = new Piscina({
      filename: options.filename ?? DEFAULT_WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
      maxQueue: options.maxQueue ?? 64,
      idleTimeout: 60_000,
      // Let each worker's event loop run between jobs. Piscina's default ("sync") parks an idle worker
      // in Atomics.wait, so jsdom's queued timer tasks (a <details open> toggle, for one) never run and
      // keep their documents alive: a 12 KB page then exhausted a 96 MiB worker heap every ~20 jobs.
      atomics: "disabled",
      resourceLimits: {
        maxOldGenerationSizeMb: maxHeapMb,
        maxYoungGenerationSizeMb: youngGenerationMb(maxHeapMb),
        stackSizeMb: 16,
      },
    });
  }

  /**
   * Runs one analysis (the public result and the document's signals); rejects with ApiError (422 runaway, 429 busy or over the client's budget, 500 bug).
   * Admission is fair between clients (fair-queue.ts); see run() for the caps.
   */
  async analyze(input: AnalyzeDocumentInput, job: AnalyzeJobOptions = {}): Promise<DocumentReport> {
    const outcome = await this.run<WorkerOutcome>(
      (started) => ({ task: { input, started } satisfies WorkerTask, transferList: [] }),
      job,
    );
    if (outcome.ok) return outcome.report;
    throw failureError(outcome);
  }

  /**
   * The resolved hrefs of a page's links as the server sent it (lib/analyzer/links/raw-links.ts), null when
   * the body could not be analysed; same caps and fairness as analyze. URL mode with signals starts it while
   * the page settles, so it costs the check no waiting.
   */
  async rawLinks(raw: RawLinksInput, job: AnalyzeJobOptions = {}): Promise<string[] | null> {
    const outcome = await this.run<RawLinksOutcome>(
      (started) => ({ task: { raw, started } satisfies RawLinksTask, transferList: [] }),
      job,
    );
    return outcome.ok ? outcome.rawHrefs : null;
  }

  /**
   * Paste mode from a request body's raw bytes (body-task.ts): the bytes are transferred to a worker
   * (the caller must not touch them afterwards), which parses, analyses and encodes the answer; the
   * answer's JSON bytes come back transferred too. Admission, caps and errors as analyze().
   */
  async analyzeBody(
    body: Uint8Array,
    rules: PasteBodyRules,
    job: AnalyzeJobOptions = {},
  ): Promise<Exclude<BodyOutcome, { ok: false }>> {
    const outcome = await this.run<BodyOutcome>(
      (started) => ({ task: { body, rules, started } satisfies BodyTask, transferList: [body.buffer as ArrayBuffer] }),
      job,
    );
    if (outcome.ok) return outcome;
    throw failureError(outcome);
  }

  /**
   * Runs one worker task under the fair queue and the caps. The time cap starts when a worker picks the
   * job up (it says so on a MessagePort), so time spent queued behind other jobs or waiting for a
   * replacement worker to boot never turns a fine page into a 422. Waiting itself is bounded too: a job
   * not started within MAX_QUEUE_WAIT_MS (or the cap, if longer) answers 429.
   */
  private async run<T extends { timing?: WorkerTiming }>(
    build: (started: MessagePort) => { task: WorkerTask | RawLinksTask | BodyTask; transferList: Transferable[] },
    job: AnalyzeJobOptions,
  ): Promise<T> {
    const controller = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let startedAt: number | null = null;
    let runTimer: unknown;
    const waitTimer = this.timers.setTimeout(
      () => controller.abort(new QueueTimeout()),
      Math.max(this.timeoutMs, MAX_QUEUE_WAIT_MS),
    );
    const onCallerAbort = () => controller.abort(job.signal?.reason);
    job.signal?.throwIfAborted();
    job.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const queuedAt = epochNow();
    let dispatchedAt = queuedAt;
    port1.once("message", (workerStartedAt: number) => {
      if (job.timing) job.timing.timings.toWorker = workerStartedAt - dispatchedAt;
      startedAt = this.now();
      this.timers.clearTimeout(waitTimer);
      runTimer = this.timers.setTimeout(() => controller.abort(), this.timeoutMs);
    });
    let outcome: T;
    let lease: Awaited<ReturnType<FairQueue["acquire"]>> | undefined;
    try {
      this.anonymous += 1;
      lease = await this.queue.acquire({
        key: job.clientKey ?? `anonymous:${this.anonymous}`,
        unmetered: job.clientKey === undefined,
        lane: job.lane ?? "paste",
        signal: controller.signal,
      });
      dispatchedAt = epochNow();
      if (job.timing) job.timing.timings.poolQueue = dispatchedAt - queuedAt;
      const { task, transferList } = build(port2);
      outcome = (await this.pool.run(task, { signal: controller.signal, transferList: [port2, ...transferList] })) as T;
      if (job.timing && outcome.timing) {
        Object.assign(job.timing.timings, outcome.timing.timings);
        job.timing.timings.fromWorker = epochNow() - outcome.timing.finishedAt;
        job.timing.peakHeapMb = outcome.timing.peakHeapMb;
      }
    } catch (error) {
      if (job.signal?.aborted) throw job.signal.reason;
      if (startedAt === null && controller.signal.reason instanceof QueueTimeout) throw busy();
      throw error instanceof ApiError ? error : mapPoolError(error);
    } finally {
      job.signal?.removeEventListener("abort", onCallerAbort);
      this.timers.clearTimeout(waitTimer);
      this.timers.clearTimeout(runTimer);
      port1.close();
      lease?.release(startedAt === null ? 0 : this.now() - startedAt);
    }
    return outcome;
  }

  /**
   * Loads the worker module (jsdom, DOMPurify) in every thread with a tiny job each, so the first real
   * request does not pay seconds of start-up inside its time cap.
   */
  async warmUp(): Promise<void> {
    const threads = this.pool.options.maxThreads;
    await Promise.all(
      // The URL lane may use every thread, so each one gets its warm-up job at once.
      Array.from({ length: threads }, () =>
        this.analyze(
          { html: '<a href="/">warm-up</a>', pageUrl: "https://example.com/", scripting: false },
          { lane: "url" },
        ),
      ),
    );
  }

  /** The 429 a job of `clientKey` would get right now, or null (fair-queue.ts `refusal`). */
  admissionRefusal(clientKey: string): ApiError | null {
    return this.queue.refusal(clientKey);
  }

  /** Jobs waiting for a worker. */
  get queueSize(): number {
    return this.queue.queued + this.pool.queueSize;
  }

  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }
}

class QueueTimeout extends Error {}

function failureError(outcome: WorkerFailure): Error {
  if (outcome.code === "UNPROCESSABLE_PAGE") return new ApiError("UNPROCESSABLE_PAGE", outcome.message);
  return new Error(`analysis failed: ${outcome.message}`);
}

function mapPoolError(error: unknown): Error {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string } | null)?.code;
  if (name === "AbortError" || name === "TimeoutError" || /abort/i.test(message)) {
    return new ApiError("UNPROCESSABLE_PAGE", "The page took too long to analyse.");
  }
  if (code === "ERR_WORKER_OUT_OF_MEMORY" || /out of memory|heap/i.test(message)) {
    return new ApiError("UNPROCESSABLE_PAGE", "The page is too large to analyse.");
  }
  if (/queue is at limit/i.test(message)) return busy();
  return error instanceof Error ? error : new Error(message);
}

/** The pool's options from the configuration (one place, so the server's warm-up and the routes agree). */
export function poolOptionsFrom(
  config: Pick<
    Config,
    "ANALYSIS_TIMEOUT_MS" | "ANALYSIS_MAX_HEAP_MB" | "ANALYSIS_CLIENT_BUDGET_MS" | "ANALYSIS_JOBS_PER_CLIENT"
  >,
): PoolOptions {
  return {
    timeoutMs: config.ANALYSIS_TIMEOUT_MS,
    maxHeapMb: config.ANALYSIS_MAX_HEAP_MB,
    clientBudgetMs: config.ANALYSIS_CLIENT_BUDGET_MS,
    maxRunningPerClient: config.ANALYSIS_JOBS_PER_CLIENT,
  };
}
