import { getHeapStatistics } from "node:v8";
import type { MessagePort } from "node:worker_threads";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { readPasteBody, type PasteBodyRules } from "./paste-body";
import { inspectDocument } from "../pipeline";
import { epochNow, Stopwatch, type StageTimings } from "../timings";
import type { LinkStats } from "../types";
import { workerFailure, type WorkerFailure, type WorkerTiming } from "./outcome";

/**
 * The worker's second kind of task: a paste-mode request body as raw bytes (transferred, not copied)
 * → parsed here (paste-body.ts) → analysed → the answer serialized to JSON bytes here and transferred
 * back. The server's main thread then neither parses the 2 MiB body nor re-encodes the 1.5 MB answer:
 * it hands those bytes to the response as they are (issue 28, "keep the event loop free").
 */

export interface BodyTask {
  body: Uint8Array;
  rules: PasteBodyRules;
  /** Told when this worker starts the job (see WorkerTask.started). */
  started: MessagePort;
}

type Timed<T> = T & { timing?: WorkerTiming };

export type BodyOutcome =
  | Timed<{
      ok: true;
      kind: "analysed";
      json: Uint8Array;
      domain: string;
      htmlBytes: number;
      skeleton: Record<string, unknown>;
      stats: LinkStats;
    }>
  | Timed<{ ok: true; kind: "refused"; body: unknown; htmlBytes: number | null }>
  | Timed<{ ok: true; kind: "invalid-json" }>
  | Timed<{ ok: true; kind: "too-deep" }>
  | WorkerFailure;

export function analyzeBodyTask({ body, rules, started }: BodyTask): BodyOutcome | ReturnType<typeof move> {
  started.postMessage(epochNow());
  started.close();
  const timings: StageTimings = {};
  let peak = 0;
  const sampleHeap = () => {
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
  };
  const timing = (): WorkerTiming => ({ timings, peakHeapMb: Math.round(peak / 1048576), finishedAt: epochNow() });
  try {
    const decoding = new Stopwatch(timings, sampleHeap);
    const read = readPasteBody(body, rules);
    decoding.lap("decode");
    if (read.kind !== "paste") return { ok: true, ...read, timing: timing() };
    const { analysis } = inspectDocument(
      { html: read.html, pageUrl: `https://${read.domain}/`, scripting: false },
      timings,
      sampleHeap,
      (release) => setImmediate(release),
    );
    const encoding = new Stopwatch(timings, sampleHeap);
    const json = new TextEncoder().encode(JSON.stringify(analysis));
    encoding.lap("encode");
    const outcome: BodyOutcome = {
      ok: true,
      kind: "analysed",
      json,
      domain: read.domain,
      htmlBytes: read.htmlBytes,
      skeleton: read.skeleton,
      stats: analysis.stats,
      timing: timing(),
    };
    // The answer's bytes go to the main thread as they are: transferred, not copied.
    return move({ [transferableSymbol]: [json.buffer], [valueSymbol]: outcome });
  } catch (error) {
    return { ...workerFailure(error), timing: timing() };
  }
}
