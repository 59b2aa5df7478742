/**
 * Where an analysis spends its time, stage by stage, for the "analysis timings" log line and the
 * benchmark's breakdown (scripts/bench-http.ts reads it back by request id). Internal only: nothing of
 * this reaches an API answer.
 *
 * Durations are milliseconds. Stages that cross threads (to and from the worker) are measured with
 * wall-clock epoch times (`performance.timeOrigin + performance.now()`), which every thread shares.
 */
export type Stage =
  // URL mode, in the request's process
  | "renderQueue"
  | "browserStart"
  | "context"
  | "pageSetup"
  | "navigation"
  | "settle"
  // the viewport grown to the document and the second settle (render/viewport.ts)
  | "grow"
  // signed-in renders with signals: the visibility pass and reading the raw body
  | "visibility"
  | "rawBody"
  | "capture"
  | "contextClose"
  | "linkChecks"
  // signed-in renders with signals: robots.txt (cached per origin), beside the link checks
  | "robotsTxt"
  // the worker pool
  | "poolQueue"
  | "toWorker"
  | "fromWorker"
  // in the worker (pipeline.ts)
  | "nesting"
  | "parse"
  // declarative shadow roots attached and flattened (document/shadow-trees.ts)
  | "flatten"
  | "extract"
  | "classify"
  | "prune"
  | "purify"
  | "serialize"
  // signed-in renders with signals: the raw HTML's links
  | "rawHtml"
  | "release"
  // a paste body read in the worker (worker/body-task.ts): parsing the request, encoding the answer
  | "decode"
  | "encode";

export type StageTimings = Partial<Record<Stage, number>>;

/** Epoch milliseconds with sub-millisecond resolution, comparable across worker threads. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Records consecutive stages: each lap is the time since the previous one (or since creation). */
export class Stopwatch {
  private last = performance.now();
  /** `onLap` runs after each stage (the worker samples its heap there). */
  constructor(
    private readonly into: StageTimings | undefined,
    private readonly onLap?: () => void,
  ) {}

  lap(stage: Stage): void {
    const now = performance.now();
    if (this.into) {
      this.into[stage] = (this.into[stage] ?? 0) + (now - this.last);
      this.onLap?.();
    }
    this.last = performance.now();
  }
}

/** Rounds every stage to 0.1 ms for logging. */
export function roundTimings(timings: StageTimings): StageTimings {
  const rounded: StageTimings = {};
  for (const [stage, ms] of Object.entries(timings) as Array<[Stage, number]>)
    rounded[stage] = Math.round(ms * 10) / 10;
  return rounded;
}
