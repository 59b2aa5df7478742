import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { AnalyzerPool } from "../../lib/analyzer/worker/pool";

/**
 * The analysis worker pool (dist/analyzer-worker.cjs, built by `npm run build`): the time cap runs from
 * when a worker starts a job, a runaway job is killed with 422, and the pool keeps serving.
 */

const pool = new AnalyzerPool({ threads: 1, timeoutMs: 2_500 });
afterAll(async () => {
  await pool.close();
});

const small = { html: '<a href="/x">x</a>', pageUrl: "https://example.com/", scripting: false };
const links = (count: number) => ({
  html: '<a href="/p">p</a>'.repeat(count),
  pageUrl: "https://example.com/",
  scripting: false,
});

describe("AnalyzerPool", () => {
  it("does not count time spent queued behind another job against the cap", async () => {
    // No wall-clock margins: the caps are real timers we only observe. The second job's cap must be
    // armed after the first job finished (while queued it has no cap running at all).
    let firstSettled = false;
    const capArmedAfterFirst: boolean[] = [];
    const observed = new AnalyzerPool({
      threads: 1,
      // 20 s cap; the queue-wait timer is 30 s, so the two are told apart by their length.
      timeoutMs: 20_000,
      timers: {
        setTimeout: (callback, ms) => {
          if (ms === 20_000) capArmedAfterFirst.push(firstSettled);
          return setTimeout(callback, ms);
        },
        clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
    });
    try {
      const first = observed.analyze(links(5_000), { clientKey: "a" }).then((result) => {
        firstSettled = true;
        return result;
      });
      const second = observed.analyze(links(5_000), { clientKey: "b" });
      const [one, two] = await Promise.all([first, second]);
      expect(one.analysis.stats.total).toBe(5_000);
      expect(two.analysis.stats.total).toBe(5_000);
      expect(capArmedAfterFirst).toEqual([false, true]);
    } finally {
      await observed.close();
    }
  });

  it("drops a queued job and stops a running one when the caller aborts", async () => {
    const abortable = new AnalyzerPool({ threads: 1, timeoutMs: 60_000 });
    try {
      await abortable.warmUp();
      // One running job per client: the second waits in line behind the first.
      const running = new AbortController();
      const queued = new AbortController();
      const first = abortable.analyze(links(80_000), { clientKey: "gone", signal: running.signal });
      const second = abortable.analyze(small, { clientKey: "gone", signal: queued.signal });
      queued.abort(new DOMException("client went away", "AbortError"));
      await expect(second).rejects.toMatchObject({ name: "AbortError" });
      running.abort(new DOMException("client went away", "AbortError"));
      await expect(first).rejects.toMatchObject({ name: "AbortError" });
      // The stopped worker is replaced and the pool keeps serving.
      const next = await abortable.analyze(small, { clientKey: "next" });
      expect(next.analysis.stats.total).toBe(1);
      // An already-aborted signal never reaches a worker.
      await expect(
        abortable.analyze(small, { signal: AbortSignal.abort(new DOMException("gone", "AbortError")) }),
      ).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      await abortable.close();
    }
  });

  it("never queues URL-mode extraction behind pastes", async () => {
    const fair = new AnalyzerPool({ threads: 2, timeoutMs: 120_000 });
    try {
      await fair.warmUp();
      const order: string[] = [];
      const track = (name: string, promise: Promise<unknown>) =>
        promise.then(() => order.push(name)).catch(() => order.push(`${name} stopped`));
      // Two pastes far larger than the URL job fill the paste lane (one worker) and its line; the URL job
      // takes the reserved worker. They only end when this test stops them, so the order below is fixed
      // by the lanes, not by how fast the machine happens to be.
      const stop = new AbortController();
      const heavy1 = track(
        "heavy paste 1",
        fair.analyze(links(600_000), { clientKey: "evil", lane: "paste", signal: stop.signal }),
      );
      const heavy2 = track(
        "heavy paste 2",
        fair.analyze(links(600_000), { clientKey: "evil2", lane: "paste", signal: stop.signal }),
      );
      const url = track("url", fair.analyze(small, { clientKey: "visitor", lane: "url" }));
      await url;
      expect(order).toEqual(["url"]);
      stop.abort(new DOMException("test over", "AbortError"));
      await Promise.all([heavy1, heavy2]);
      expect(order.sort()).toEqual(["heavy paste 1 stopped", "heavy paste 2 stopped", "url"]);
    } finally {
      await fair.close();
    }
  });

  it("kills a job past its cap with 422 and serves the next one", async () => {
    const error = await pool.analyze(links(600_000)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("UNPROCESSABLE_PAGE");
    const next = await pool.analyze(small);
    expect(next.analysis.links).toHaveLength(1);
  });
});
