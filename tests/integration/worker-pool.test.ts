import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { AnalyzerPool } from "../../lib/analyzer/worker-pool";

/**
 * The analysis worker pool (dist/analyzer-worker.cjs, built by `npm run build`): the time cap runs from
 * when a worker starts a job, a runaway job is killed with 422, and the pool keeps serving.
 */

const pool = new AnalyzerPool({ threads: 1, timeoutMs: 2_500 });
afterAll(async () => {
  await pool.close();
});

const small = { html: '<a href="/x">x</a>', pageUrl: "https://example.com/", scripting: false };
const links = (count: number) => ({ html: '<a href="/p">p</a>'.repeat(count), pageUrl: "https://example.com/", scripting: false });

describe("AnalyzerPool", () => {
  it("does not count time spent queued behind another job against the cap", async () => {
    // Calibrate on this machine: one job of about a second, then a cap of 1.6 jobs. Two such jobs on one
    // thread take 2 jobs' time in all, past the cap, yet each runs well within it.
    const calibration = new AnalyzerPool({ threads: 1, timeoutMs: 60_000 });
    await calibration.warmUp();
    let count = 5_000;
    let ms = 0;
    for (; count < 400_000; count *= 2) {
      const started = performance.now();
      await calibration.analyze(links(count));
      ms = performance.now() - started;
      if (ms > 800) break;
    }
    await calibration.close();

    const capped = new AnalyzerPool({ threads: 1, timeoutMs: Math.round(ms * 1.6) });
    try {
      await capped.warmUp();
      const [first, second] = await Promise.all([capped.analyze(links(count)), capped.analyze(links(count))]);
      expect(first.stats.total).toBe(count);
      expect(second.stats.total).toBe(count);
    } finally {
      await capped.close();
    }
  });

  it("kills a job past its cap with 422 and serves the next one", async () => {
    const error = await pool.analyze(links(600_000)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("UNPROCESSABLE_PAGE");
    const next = await pool.analyze(small);
    expect(next.links).toHaveLength(1);
  });
});
