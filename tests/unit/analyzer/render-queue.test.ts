import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { RenderQueue } from "@/lib/analyzer/render-queue";

describe("RenderQueue", () => {
  it("runs up to the limit, queues a few, refuses the rest with RATE_LIMITED", async () => {
    const queue = new RenderQueue(2, 2);
    const a = await queue.acquire();
    const b = await queue.acquire();
    const order: string[] = [];
    const c = queue.acquire().then((release) => (order.push("c"), release));
    const d = queue.acquire().then((release) => (order.push("d"), release));
    expect(queue.active).toBe(2);
    expect(queue.queued).toBe(2);
    const refused = await queue.acquire().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("RATE_LIMITED");
    expect((refused as ApiError).message).toMatch(/render queue is full/);
    a();
    a(); // a second release is a no-op
    const releaseC = await c;
    b();
    const releaseD = await d;
    expect(order).toEqual(["c", "d"]);
    releaseC();
    releaseD();
    expect(queue.active).toBe(0);
  });

  it("drops a waiter whose signal aborts", async () => {
    const queue = new RenderQueue(1, 1);
    const release = await queue.acquire();
    const controller = new AbortController();
    const waiting = queue.acquire(controller.signal);
    controller.abort(new Error("client left"));
    await expect(waiting).rejects.toThrow("client left");
    expect(queue.queued).toBe(0);
    release();
    expect(queue.active).toBe(0);
  });
});
