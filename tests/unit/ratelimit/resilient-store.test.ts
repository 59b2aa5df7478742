import { describe, expect, it, vi } from "vitest";
import { MemoryStore, type LimitLog, type LimitResult, type LimitStore } from "@/lib/ratelimit";
import { ResilientStore } from "@/lib/ratelimit/resilient-store";

const policies = { ip: { limit: 2, windowSeconds: 60, prefix: "t:ip" }, budget: { limit: 1, prefix: "t:budget" } };
const sharedAnswer: LimitResult = { allowed: true, limit: 2, remaining: 1, reset: 123, reason: "ip" };

/** A shared store that can be switched between answering, failing and hanging. */
class SwitchableStore implements LimitStore {
  mode: "up" | "error" | "hang" = "up";
  calls = 0;
  private answer(): Promise<LimitResult> {
    this.calls++;
    if (this.mode === "error") return Promise.reject(new Error("ECONNREFUSED"));
    if (this.mode === "hang") return new Promise<LimitResult>(() => {});
    return Promise.resolve(sharedAnswer);
  }
  checkRequest = () => this.answer();
  peekRequest = () => this.answer();
  consumeBudget = () => this.answer();
}

function setup() {
  let now = 1_000_000;
  const logs: Parameters<LimitLog>[] = [];
  const primary = new SwitchableStore();
  const store = new ResilientStore(primary, new MemoryStore(policies, () => now), {
    timeoutMs: 50,
    cooldownMs: 1000,
    log: (...args) => logs.push(args),
    now: () => now,
  });
  return { store, primary, logs, advance: (ms: number) => (now += ms) };
}

describe("ResilientStore", () => {
  it("answers from the shared store while it is up", async () => {
    const { store, logs } = setup();
    expect(await store.checkRequest("k")).toEqual(sharedAnswer);
    expect(logs).toEqual([]);
  });

  it("on errors falls back to in-process limits (still enforced), logs once, probes after the cool-down", async () => {
    const { store, primary, logs, advance } = setup();
    primary.mode = "error";
    const results = [await store.checkRequest("k"), await store.checkRequest("k"), await store.checkRequest("k")];
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(await store.consumeBudget()).toMatchObject({ allowed: true, reason: "budget" });
    expect(await store.consumeBudget()).toMatchObject({ allowed: false, reason: "budget" });
    expect(store.degraded).toBe(true);
    expect(primary.calls, "no probe during the cool-down").toBe(1);
    expect(logs.map(([level]) => level)).toEqual(["warn"]);

    advance(1001);
    await store.peekRequest("k");
    expect(primary.calls, "probed after the cool-down").toBe(2);
    expect(logs).toHaveLength(1);

    primary.mode = "up";
    advance(1001);
    expect(await store.checkRequest("k")).toEqual(sharedAnswer);
    expect(store.degraded).toBe(false);
    expect(logs.map(([level]) => level)).toEqual(["warn", "info"]);
  });

  it("a hanging shared store costs exactly the timeout, then answers in-process", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { store, primary } = setup();
      primary.mode = "hang";
      let answer: LimitResult | undefined;
      void store.checkRequest("k").then((result) => (answer = result));
      await vi.advanceTimersByTimeAsync(49);
      expect(answer, "no answer before the 50 ms timeout").toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(answer).toMatchObject({ allowed: true, remaining: 1, reason: "ip" });
      expect(store.degraded).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
