import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { WORKER_NICE } from "@/lib/analyzer/worker-priority";

/**
 * Analysis threads run niced (worker-priority.ts): the calling thread's priority drops by WORKER_NICE,
 * and only that thread's: the process's main thread, which serves requests, keeps its own.
 */
describe.runIf(process.platform === "linux")("lowerThreadPriority", () => {
  it("lowers the calling worker thread's priority and leaves the main thread's alone", async () => {
    const file = path.resolve(__dirname, "../../../lib/analyzer/worker-priority.ts");
    const mainBefore = os.getPriority(process.pid);
    const worker = new Worker(
      `
      const { parentPort } = require("node:worker_threads");
      const fs = require("node:fs");
      const os = require("node:os");
      const { lowerThreadPriority } = require("tsx/cjs/api").require(${JSON.stringify(file)}, ${JSON.stringify(file)});
      const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
      const before = os.getPriority(tid);
      const lowered = lowerThreadPriority();
      parentPort.postMessage({ tid, before, lowered, after: os.getPriority(tid) });
      `,
      { eval: true },
    );
    const result = await new Promise<{ tid: number; before: number; lowered: boolean; after: number }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    await worker.terminate();
    expect(result.lowered).toBe(true);
    expect(result.tid).not.toBe(process.pid);
    expect(result.after).toBe(Math.min(19, result.before + WORKER_NICE));
    expect(os.getPriority(process.pid)).toBe(mainBefore);
  });
});
