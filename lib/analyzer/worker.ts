/**
 * The worker-thread entry: one analysis per task, off the request thread. Errors come back as data
 * because class identity (ApiError) does not survive the thread boundary. Two kinds of task: a document
 * to analyse (WorkerTask), or a paste request's raw body (worker-body.ts).
 */
import { getHeapStatistics } from "node:v8";
import { inspectDocument } from "./pipeline";
import type { MessagePort } from "node:worker_threads";
import { epochNow, type StageTimings } from "./timings";
import type { AnalyzeDocumentInput, DocumentReport } from "./types";
import { analyzeBodyTask, type BodyTask } from "./worker-body";
import { workerFailure, type WorkerFailure, type WorkerTiming } from "./worker-outcome";

export type { WorkerTiming } from "./worker-outcome";

export type WorkerOutcome = ({ ok: true; report: DocumentReport } & { timing?: WorkerTiming }) | WorkerFailure;

export interface WorkerTask {
  input: AnalyzeDocumentInput;
  /** Told when this worker starts the job (epoch ms): the pool's time cap runs from then, not from queueing. */
  started: MessagePort;
}

export default function analyzeTask(task: WorkerTask | BodyTask): WorkerOutcome | ReturnType<typeof analyzeBodyTask> {
  if ("body" in task) return analyzeBodyTask(task);
  const { input, started } = task;
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
    const report = inspectDocument(input, timings, sampleHeap, (release) => setImmediate(release));
    return { ok: true, report, timing: timing() };
  } catch (error) {
    return { ...workerFailure(error), timing: timing() };
  }
}
