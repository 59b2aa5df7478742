/**
 * The worker-thread entry: one analysis per task, off the request thread. Errors come back as data
 * because class identity (ApiError) does not survive the thread boundary.
 */
import { ApiError } from "@/lib/errors";
import { inspectDocument } from "./pipeline";
import type { MessagePort } from "node:worker_threads";
import type { AnalyzeDocumentInput, DocumentReport } from "./types";

export type WorkerOutcome =
  | { ok: true; report: DocumentReport }
  | { ok: false; code: "UNPROCESSABLE_PAGE" | "INTERNAL_ERROR"; message: string };

export interface WorkerTask {
  input: AnalyzeDocumentInput;
  /** Told when this worker starts the job: the pool's time cap runs from then, not from queueing. */
  started: MessagePort;
}

export default function analyzeTask({ input, started }: WorkerTask): WorkerOutcome {
  started.postMessage("started");
  started.close();
  try {
    return { ok: true, report: inspectDocument(input) };
  } catch (error) {
    if (error instanceof ApiError && error.code === "UNPROCESSABLE_PAGE") return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      // Maximum call stack size exceeded: a hostile document, not our bug to report as 500.
      return { ok: false, code: "UNPROCESSABLE_PAGE", message: "The document is too deeply nested to analyse." };
    }
    return { ok: false, code: "INTERNAL_ERROR", message: error instanceof Error ? error.message : String(error) };
  }
}
