import { fork, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, LOCK_FILE } from "../../../lib/db/lock";
import type { HolderCommand, HolderReply, Outcome } from "./lock-holder";

const dataDirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linklens-lock-"));
  dataDirs.push(dir);
  return dir;
};
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A real second process running lib/db/lock.ts, driven over IPC (tests/unit/db/lock-holder.ts). */
async function holder() {
  const child = fork(path.join(__dirname, "lock-holder.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  children.push(child);
  const next = <T extends HolderReply>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`lock holder exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (reply) => {
        child.off("exit", onExit);
        resolve(reply as T);
      });
    });
  const send = <T extends HolderReply>(command: HolderCommand) => {
    const reply = next<T>();
    child.send(command);
    return reply;
  };
  await next();
  return {
    pid: child.pid as number,
    /** Tries each directory's lock in turn, starting at `at` (hrtime ns); one outcome per directory. */
    lock: async (dirs: string[], at = process.hrtime.bigint()) =>
      (await send<{ outcomes: Outcome[] }>({ lock: dirs, at: String(at) })).outcomes,
    release: () => send({ release: true }),
    /** Dies without cleaning up, as kill -9 or a power cut would leave it. */
    kill: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** A data directory whose lock was left behind by a process that was killed while holding it. */
async function staleDataDir(): Promise<string> {
  const dir = tmp();
  const dead = await holder();
  expect(await dead.lock([dir])).toEqual(["locked"]);
  await dead.kill();
  return dir;
}

describe("embedded data-directory lock", () => {
  it("refuses while another LinkLens process holds it, and names that process", async () => {
    const dir = tmp();
    const other = await holder();
    expect(await other.lock([dir])).toEqual(["locked"]);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by another LinkLens process (pid ${other.pid})`);
    await other.release();
    const release = lockDataDir(dir);
    expect(await other.lock([dir])).toEqual(["refused"]);
    release();
  });

  it("takes over the lock of a process that died holding it, and releases it", async () => {
    const dir = await staleDataDir();
    const release = lockDataDir(dir);
    const other = await holder();
    expect(await other.lock([dir])).toEqual(["refused"]);
    release();
    expect(fs.readdirSync(dir)).not.toContain(LOCK_FILE);
    expect(await other.lock([dir])).toEqual(["locked"]);
    await other.release();
  });

  it("two processes starting together on a stale lock: exactly one takes it, every time", async () => {
    const stale = await staleDataDir();
    const [a, b] = [await holder(), await holder()];
    const dirs: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const trials = Array.from({ length: 200 }, () => {
        const dir = tmp();
        fs.cpSync(stale, dir, { recursive: true });
        return dir;
      });
      // Both children start at the same instant and sweep the same 200 stale data directories.
      const at = process.hrtime.bigint() + 50_000_000n;
      const [first, second] = await Promise.all([a.lock(trials, at), b.lock(trials, at)]);
      await Promise.all([a.release(), b.release()]);
      trials.forEach((dir, i) => {
        const outcome = [first[i], second[i]].sort().join(" + ");
        if (outcome !== "locked + refused") dirs.push(`${dir}: ${outcome}`);
      });
    }
    expect(dirs, `data directories where not exactly one process took the lock (of 600)`).toEqual([]);
  }, 120_000);

  it("a lock naming a pid that now belongs to an unrelated process does not block start-up", async () => {
    // A lock left by a killed LinkLens process; then its pid goes to a live process that is not LinkLens
    // (started later, as a reused pid always is).
    const stale = await staleDataDir();
    const sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(sleeper);
    const pid = sleeper.pid as number;

    // The lock file of an earlier version: a bare pid.
    const legacy = tmp();
    fs.writeFileSync(path.join(legacy, LOCK_FILE), String(pid));
    lockDataDir(legacy)();

    const lockDir = path.join(stale, LOCK_FILE);
    for (const name of fs.readdirSync(lockDir)) {
      const owner = JSON.parse(fs.readFileSync(path.join(lockDir, name), "utf8")) as { pid: number };
      fs.writeFileSync(path.join(lockDir, name), JSON.stringify({ ...owner, pid }));
    }
    lockDataDir(stale)();
  });
});
