/**
 * The worker-thread entry: one analysis per task, off the request thread. Errors come back as data
 * because class identity (ApiError) does not survive the thread boundary. Three kinds of task: a document
 * to analyse (WorkerTask), a raw body whose links to read (RawLinksTask, placement-verdict.md
 * `inRawHtml`), or a paste request's raw body (body-task.ts).
 */
import { getHeapStatistics } from "node:v8";
import { inspectDocument } from "../pipeline";
import { rawLinkHrefs } from "../links/raw-links";
import type { MessagePort } from "node:worker_threads";
import { epochNow, type StageTimings } from "../timings";
import type { AnalyzeDocumentInput, DocumentReport } from "../types";
import { analyzeBodyTask, type BodyTask } from "./body-task";
import { workerFailure, type WorkerFailure, type WorkerTiming } from "./outcome";

export type { WorkerTiming } from "./outcome";

export type WorkerOutcome = ({ ok: true; report: DocumentReport } & { timing?: WorkerTiming }) | WorkerFailure;
export type RawLinksOutcome = ({ ok: true; rawHrefs: string[] | null } & { timing?: WorkerTiming }) | WorkerFailure;

/**
 * The links of a page as the server sent it (lib/analyzer/links/raw-links.ts): the navigation response body
 * and its URL.
 */
export interface RawLinksInput {
  rawHtml: string;
  pageUrl: string;
}

export interface WorkerTask {
  input: AnalyzeDocumentInput;
  /** Told when this worker starts the job (epoch ms): the pool's time cap runs from then, not from queueing. */
  started: MessagePort;
}

export interface RawLinksTask {
  raw: RawLinksInput;
  started: MessagePort;
}

/** Starts a job's clock and heap sampling; answers the timing to send back. */
function startJob(started: MessagePort) {
  started.postMessage(epochNow());
  started.close();
  const timings: StageTimings = {};
  let peak = 0;
  const sampleHeap = () => {
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
  };
  const timing = (): WorkerTiming => ({ timings, peakHeapMb: Math.round(peak / 1048576), finishedAt: epochNow() });
  return { timings, sampleHeap, timing };
}

function rawLinksTask({ raw, started }: RawLinksTask): RawLinksOutcome {
  const job = startJob(started);
  try {
    const rawHrefs = rawLinkHrefs(raw.rawHtml, raw.pageUrl);
    job.sampleHeap();
    return { ok: true, rawHrefs, timing: job.timing() };
  } catch (error) {
    return { ...workerFailure(error), timing: job.timing() };
  }
}

export default function analyzeTask(
  task: WorkerTask | RawLinksTask | BodyTask,
): WorkerOutcome | RawLinksOutcome | ReturnType<typeof analyzeBodyTask> {
  if ("body" in task) return analyzeBodyTask(task);
  if ("raw" in task) return rawLinksTask(task);
  const job = startJob(task.started);
  try {
    // The document is detached right after the answer is posted, not before: the event loop runs
    // between jobs (atomics "disabled", see pool.ts), so it is gone before the next one starts.
    const report = inspectDocument(task.input, job.timings, job.sampleHeap, (release) => setImmediate(release));
    return { ok: true, report, timing: job.timing() };
  } catch (error) {
    return { ...workerFailure(error), timing: job.timing() };
  }
}
