import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { RenderQueue } from "@/lib/analyzer/render/queue";

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

describe("RenderQueue priorities", () => {
  it("starts waiting interactive renders before background ones, whatever their order of arrival", async () => {
    const queue = new RenderQueue(1, 2);
    const release = await queue.acquire(undefined, "background");
    const order: string[] = [];
    // Each render releases its slot as soon as it starts, handing it to the next in line.
    const render = (name: string, priority: "interactive" | "background") =>
      queue.acquire(undefined, priority).then((releaseOwn) => {
        order.push(name);
        releaseOwn();
      });
    const waiters = [
      render("check 1", "background"),
      render("check 2", "background"),
      render("public 1", "interactive"),
      render("check 3", "background"),
      render("public 2", "interactive"),
    ];
    release();
    await Promise.all(waiters);
    expect(order).toEqual(["public 1", "public 2", "check 1", "check 2", "check 3"]);
  });

  it("bounds the waiting line by interactive renders only: a monitor backlog never makes the public analyzer 429", async () => {
    const queue = new RenderQueue(1, 1);
    const release = await queue.acquire(undefined, "background");
    const backlog = Array.from({ length: 5 }, () => queue.acquire(undefined, "background"));
    const publicRender = queue.acquire(undefined, "interactive");
    const refused = await queue.acquire(undefined, "interactive").catch((e: unknown) => e);
    expect((refused as ApiError).code).toBe("RATE_LIMITED");
    release();
    (await publicRender)();
    for (const waiter of backlog) (await waiter)();
    expect(queue.active).toBe(0);
  });
});
