import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { FairQueue, type Lane, type Lease } from "@/lib/analyzer/worker/fair-queue";

/** A queue on a manual clock, and a helper that records the order jobs start in. */
function setup(options: { slots: number; budgetMs?: number; maxWaitingPerClient?: number }) {
  let now = 0;
  const queue = new FairQueue({ budgetMs: 10_000, ...options, now: () => now });
  const started: string[] = [];
  const leases = new Map<string, Lease>();
  const submit = (name: string, key: string, lane: Lane = "paste", signal?: AbortSignal) => {
    const promise = queue.acquire({ key, lane, signal }).then((lease) => {
      started.push(name);
      leases.set(name, lease);
      return lease;
    });
    promise.catch(() => undefined);
    return promise;
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { queue, started, leases, submit, flush, advance: (ms: number) => (now += ms) };
}

describe("FairQueue", () => {
  it("runs at most one job per client; other clients' jobs go first", async () => {
    const { started, leases, submit, flush } = setup({ slots: 3 });
    void submit("a1", "a");
    void submit("a2", "a");
    void submit("b1", "b");
    await flush();
    expect(started).toEqual(["a1", "b1"]);
    leases.get("a1")?.release(100);
    await flush();
    expect(started).toEqual(["a1", "b1", "a2"]);
  });

  it("keeps a worker for URL mode: a URL job starts while pastes wait", async () => {
    const { started, submit, flush } = setup({ slots: 2 });
    void submit("evil-paste", "evil");
    void submit("other-paste", "other");
    void submit("url", "someone", "url");
    await flush();
    expect(started).toEqual(["evil-paste", "url"]);
  });

  it("starts waiting URL jobs before earlier pastes", async () => {
    const { started, leases, submit, flush } = setup({ slots: 1 });
    void submit("p1", "a");
    void submit("p2", "b");
    void submit("u1", "c", "url");
    await flush();
    leases.get("p1")?.release(1);
    await flush();
    expect(started).toEqual(["p1", "u1"]);
  });

  it("allows more running jobs per client when configured", async () => {
    const queue = new FairQueue({ slots: 4, budgetMs: 10_000, maxRunningPerClient: 2 });
    const started: number[] = [];
    for (let i = 0; i < 3; i += 1) void queue.acquire({ key: "a", lane: "paste" }).then(() => started.push(i));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(queue.queued).toBe(1);
  });

  it("answers 429 when one client queues more than its share", async () => {
    const { submit, flush } = setup({ slots: 2, maxWaitingPerClient: 2 });
    void submit("a1", "a");
    void submit("a2", "a");
    void submit("a3", "a");
    await flush();
    const error = await submit("a4", "a").catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe("RATE_LIMITED");
  });

  it("charges worker time to the client and refuses it past its budget until the window moves", async () => {
    const { queue, leases, submit, flush, advance } = setup({ slots: 2, budgetMs: 30_000 });
    await submit("a1", "a");
    advance(1_000);
    leases.get("a1")?.release(20_000);
    await submit("a2", "a");
    advance(1_000);
    leases.get("a2")?.release(20_000);
    expect(queue.usedMs("a")).toBe(40_000);
    const error = (await submit("a3", "a").catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("RATE_LIMITED");
    // The first 20 s job (finished at t=1 s) ages out at t=61 s; the clock is at 2 s.
    expect(error.headers["Retry-After"]).toBe("59");
    // Another client is not affected.
    (await submit("b1", "b")).release(0);
    advance(58_999);
    expect(((await submit("a3", "a").catch((caught: unknown) => caught)) as ApiError).code).toBe("RATE_LIMITED");
    advance(1);
    await flush();
    await expect(submit("a3", "a")).resolves.toBeDefined();
  });

  it("lets a waiting job give up its place", async () => {
    const { queue, started, submit, flush } = setup({ slots: 1 });
    void submit("a1", "a");
    const controller = new AbortController();
    const waiting = submit("b1", "b", "paste", controller.signal);
    await flush();
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    expect(queue.queued).toBe(0);
    expect(started).toEqual(["a1"]);
  });
});

describe("FairQueue bookkeeping", () => {
  it("keeps no budget for unmetered jobs and forgets clients whose usage expired", async () => {
    let now = 0;
    const queue = new FairQueue({ slots: 1, budgetMs: 1, now: () => now });
    for (let i = 0; i < 3; i += 1)
      (await queue.acquire({ key: "internal", lane: "url", unmetered: true })).release(1_000);
    expect(queue.usedMs("internal")).toBe(0);
    for (let i = 0; i < 1_001; i += 1) (await queue.acquire({ key: `client-${i}`, lane: "paste" })).release(5);
    expect(queue.trackedClients).toBe(1_001);
    now += 60_001;
    (await queue.acquire({ key: "late", lane: "paste" })).release(5);
    expect(queue.trackedClients).toBe(1);
  });
});
