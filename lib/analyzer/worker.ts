/**
 * The worker-thread entry: one analysis per task, off the request thread. Errors come back as data
 * because class identity (ApiError) does not survive the thread boundary.
 */
import { getHeapStatistics } from "node:v8";
import { ApiError } from "@/lib/errors";
import { inspectDocument } from "./pipeline";
import { rawLinkHrefs } from "./raw-links";
import type { MessagePort } from "node:worker_threads";
import { epochNow, type StageTimings } from "./timings";
import type { AnalyzeDocumentInput, DocumentReport } from "./types";

/** How the job went in the worker: its stages, its heap, and when it finished (epoch ms), for the "mode timings" log. */
export interface WorkerTiming {
  timings: StageTimings;
  /** The most used heap seen at the end of any stage, MiB: a close floor of the job's peak. */
  peakHeapMb: number;
  finishedAt: number;
}

export type WorkerOutcome = (
  | { ok: true; report: DocumentReport }
  | { ok: true; rawHrefs: string[] | null }
  | { ok: false; code: "UNPROCESSABLE_PAGE" | "INTERNAL_ERROR"; message: string }
) & { timing?: WorkerTiming };

/** The links of a page as the server sent it (raw-links.ts): the navigation response body and its URL. */
export interface RawLinksInput {
  rawHtml: string;
  pageUrl: string;
}

export interface WorkerTask {
  /** One of: a document to analyse, or a raw body whose links to read (placement-verdict.md `inRawHtml`). */
  input?: AnalyzeDocumentInput;
  raw?: RawLinksInput;
  /** Told when this worker starts the job (epoch ms): the pool's time cap runs from then, not from queueing. */
  started: MessagePort;
}

export default function analyzeTask({ input, raw, started }: WorkerTask): WorkerOutcome {
  started.postMessage(epochNow());
  started.close();
  const timings: StageTimings = {};
  let peak = 0;
  const sampleHeap = () => {
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
  };
  const timing = (): WorkerTiming => ({ timings, peakHeapMb: Math.round(peak / 1048576), finishedAt: epochNow() });
  try {
    // The document is detached right after the answer is posted, not before: the event loop runs
    // between jobs (atomics "disabled", see worker-pool.ts), so it is gone before the next one starts.
    if (raw) {
      const rawHrefs = rawLinkHrefs(raw.rawHtml, raw.pageUrl);
      sampleHeap();
      return { ok: true, rawHrefs, timing: timing() };
    }
    if (!input) throw new Error("a worker task needs input or raw");
    const report = inspectDocument(input, timings, sampleHeap, (release) => setImmediate(release));
    return { ok: true, report, timing: timing() };
  } catch (error) {
    if (error instanceof ApiError && error.code === "UNPROCESSABLE_PAGE") return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      // Maximum call stack size exceeded: a hostile document, not our bug to report as 500.
      return { ok: false, code: "UNPROCESSABLE_PAGE", message: "The document is too deeply nested to analyse." };
    }
    return { ok: false, code: "INTERNAL_ERROR", message: error instanceof Error ? error.message : String(error) };
  }
}
