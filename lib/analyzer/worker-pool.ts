import os from "node:os";
import { MessageChannel } from "node:worker_threads";
import path from "node:path";
import { Piscina } from "piscina";
import { ApiError } from "@/lib/errors";
import type { AnalysisResult, AnalyzeDocumentInput } from "./types";
import type { WorkerOutcome, WorkerTask } from "./worker";

/**
 * A small pool of worker threads for the analysis pipeline, so one huge or hostile document never
 * stalls other requests. Each job has a time cap (the worker is terminated) and a heap cap (the worker
 * dies of OOM, not the server); both answer 422 UNPROCESSABLE_PAGE.
 *
 * The worker script is lib/analyzer/worker.ts bundled by scripts/build-node.mjs into dist/ (Next's
 * bundler does not produce worker entry points).
 */

export interface PoolOptions {
  filename?: string;
  threads?: number;
  timeoutMs?: number;
  maxHeapMb?: number;
  maxQueue?: number;
}

/** How long a job may wait for a worker before the pool answers "busy" (429). */
const MAX_QUEUE_WAIT_MS = 30_000;

export const DEFAULT_WORKER_FILE = path.join(process.cwd(), "dist", "analyzer-worker.cjs");

export class AnalyzerPool {
  private readonly pool: Piscina;
  private readonly timeoutMs: number;

  constructor(options: PoolOptions = {}) {
    const threads = options.threads ?? Math.max(2, Math.min(4, os.availableParallelism()));
    this.timeoutMs = options.timeoutMs ?? 20_000;
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
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1536, stackSizeMb: 16 },
    });
  }

  /**
   * Runs one analysis; rejects with ApiError (422 runaway, 429 busy, 500 bug). The time cap starts when
   * a worker picks the job up (it says so on a MessagePort), so time spent queued behind other jobs or
   * waiting for a replacement worker to boot never turns a fine page into a 422. Waiting itself is
   * bounded too: a job not started within MAX_QUEUE_WAIT_MS (or the cap, if longer) answers 429.
   */
  async analyze(input: AnalyzeDocumentInput): Promise<AnalysisResult> {
    const controller = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let started = false;
    let runTimer: NodeJS.Timeout | undefined;
    const waitTimer = setTimeout(() => controller.abort(new QueueTimeout()), Math.max(this.timeoutMs, MAX_QUEUE_WAIT_MS));
    port1.once("message", () => {
      started = true;
      clearTimeout(waitTimer);
      runTimer = setTimeout(() => controller.abort(), this.timeoutMs);
    });
    let outcome: WorkerOutcome;
    try {
      const task: WorkerTask = { input, started: port2 };
      outcome = (await this.pool.run(task, { signal: controller.signal, transferList: [port2] })) as WorkerOutcome;
    } catch (error) {
      throw !started && controller.signal.reason instanceof QueueTimeout ? busy() : mapPoolError(error);
    } finally {
      clearTimeout(waitTimer);
      clearTimeout(runTimer);
      port1.close();
    }
    if (outcome.ok) return outcome.result;
    if (outcome.code === "UNPROCESSABLE_PAGE") throw new ApiError("UNPROCESSABLE_PAGE", outcome.message);
    throw new Error(`analysis failed: ${outcome.message}`);
  }

  /**
   * Loads the worker module (jsdom, DOMPurify) in every thread with a tiny job each, so the first real
   * request does not pay seconds of start-up inside its time cap.
   */
  async warmUp(): Promise<void> {
    const threads = this.pool.options.maxThreads;
    await Promise.all(
      Array.from({ length: threads }, () => this.analyze({ html: '<a href="/">warm-up</a>', pageUrl: "https://example.com/", scripting: false })),
    );
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }
}

class QueueTimeout extends Error {}

function busy(): ApiError {
  return new ApiError("RATE_LIMITED", "The analyzer is busy; too many analyses are waiting.", { hint: "Retry in a few seconds.", headers: { "Retry-After": "5" } });
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
