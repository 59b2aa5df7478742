import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
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

async function timeOf(html: string): Promise<number> {
  const started = performance.now();
  await pool.analyze({ html, pageUrl: "https://example.com/", scripting: false });
  return performance.now() - started;
}

describe("AnalyzerPool", () => {
  it("does not count time spent queued behind another job against the cap", async () => {
    await pool.warmUp();
    // Find a document that takes well over half the cap, so two of them in a row exceed it.
    let count = 2_000;
    let ms = await timeOf('<a href="/p">p</a>'.repeat(count));
    while (ms < 1_400 && count < 400_000) {
      count *= 2;
      ms = await timeOf('<a href="/p">p</a>'.repeat(count));
    }
    expect(ms).toBeGreaterThan(1_400);
    expect(ms).toBeLessThan(2_500);
    const html = '<a href="/p">p</a>'.repeat(count);
    const base = { pageUrl: "https://example.com/", scripting: false };
    // One thread: the second job waits for the first, then runs; together they exceed the cap.
    const [first, second] = await Promise.all([pool.analyze({ html, ...base }), pool.analyze({ html, ...base })]);
    expect(first.stats.total).toBe(count);
    expect(second.stats.total).toBe(count);
  });

  it("kills a job past its cap with 422 and serves the next one", async () => {
    const error = await pool.analyze({ html: '<a href="/p">p</a>'.repeat(600_000), pageUrl: "https://example.com/", scripting: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("UNPROCESSABLE_PAGE");
    const next = await pool.analyze(small);
    expect(next.links).toHaveLength(1);
  });
});
