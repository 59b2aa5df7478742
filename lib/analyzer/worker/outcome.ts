import { ApiError } from "@/lib/errors";
import type { StageTimings } from "../timings";

/**
 * What every worker task answers besides its result: how its time went, and its failures as data
 * (class identity, ApiError's included, does not survive the thread boundary).
 */

/** How the job went in the worker: its stages, its heap, and when it finished (epoch ms), for the "mode timings" log. */
export interface WorkerTiming {
  timings: StageTimings;
  /** The most used heap seen at the end of any stage, MiB: a close floor of the job's peak. */
  peakHeapMb: number;
  finishedAt: number;
}

export type WorkerFailure = { ok: false; code: "UNPROCESSABLE_PAGE" | "INTERNAL_ERROR"; message: string } & {
  timing?: WorkerTiming;
};

/** A thrown value as a worker's answer: the page's fault (422) or ours (500). */
export function workerFailure(error: unknown): WorkerFailure {
  if (error instanceof ApiError && error.code === "UNPROCESSABLE_PAGE")
    return { ok: false, code: error.code, message: error.message };
  if (error instanceof RangeError) {
    // Maximum call stack size exceeded: a hostile document, not our bug to report as 500.
    return { ok: false, code: "UNPROCESSABLE_PAGE", message: "The document is too deeply nested to analyse." };
  }
  return { ok: false, code: "INTERNAL_ERROR", message: error instanceof Error ? error.message : String(error) };
}
