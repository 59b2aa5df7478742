import { afterEach, describe, expect, it, vi } from "vitest";
import { pacedResolver, type Resolver } from "@/lib/net/resolve";

/** The system resolver's pacing (resolve.ts): lookups start at most `perSecond` a second after a burst. */
describe("pacedResolver", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts a burst at once, then one lookup per 1/perSecond, in arrival order", async () => {
    vi.useFakeTimers();
    const started: string[] = [];
    const base: Resolver = async (hostname) => {
      started.push(hostname);
      return [{ address: "192.0.2.1", family: 4 }];
    };
    const paced = pacedResolver(base, 10, 2, () => Date.now());
    const answers = ["a", "b", "c", "d", "e"].map((name) => paced(name));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(["a", "b"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual(["a", "b", "c"]);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toEqual(["a", "b", "c", "d", "e"]);
    await expect(Promise.all(answers)).resolves.toHaveLength(5);
  });

  it("a failed lookup does not stall the ones behind it", async () => {
    const paced = pacedResolver(
      async (hostname) => {
        if (hostname === "bad") throw new Error("ENOTFOUND");
        return [{ address: "192.0.2.1", family: 4 }];
      },
      1_000,
      5,
    );
    await expect(paced("bad")).rejects.toThrow("ENOTFOUND");
    await expect(paced("good")).resolves.toHaveLength(1);
  });
});
