import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MEMORY_TMPDIR_ENV,
  cacheRoot,
  hasMemoryRoom,
  keepTmpFilesInMemory,
  type MemoryTmpdir,
} from "../../scripts/lib/memory-tmpdir";

const SHM = "/dev/shm";
// Above Linux's largest pid (2^22): no process has it.
const DEAD_PID = 4_194_305;

const shmHasRoom = hasMemoryRoom(SHM);

describe("keepTmpFilesInMemory", () => {
  const saved = { TMPDIR: process.env.TMPDIR, [MEMORY_TMPDIR_ENV]: process.env[MEMORY_TMPDIR_ENV] };
  let made: MemoryTmpdir | undefined;

  beforeEach(() => {
    // The run that started this worker may have set both: each test starts as a run of its own would.
    delete process.env[MEMORY_TMPDIR_ENV];
  });

  afterEach(() => {
    made?.remove();
    made = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("points TMPDIR at a directory of its own in a tmpfs, open to the postgres user as /tmp is", () => {
    made = keepTmpFilesInMemory();
    if (!shmHasRoom) {
      expect(made).toBeUndefined();
      return;
    }
    expect(made?.dir.startsWith(`${SHM}/linklens-test-${process.pid}-`)).toBe(true);
    expect(process.env.TMPDIR).toBe(made?.dir);
    expect(os.tmpdir()).toBe(made?.dir);
    expect(fs.statSync(made?.dir ?? "").mode & 0o7777).toBe(0o1777);
    // The migrated template outlives the run: beside the run directories, not in this one.
    expect(cacheRoot()).toBe(SHM);
    made?.remove();
    expect(fs.existsSync(made?.dir ?? "")).toBe(false);
  });

  it("keeps the system's TMPDIR where the directory is not a writable tmpfs", () => {
    process.env.TMPDIR = "/var/tmp";
    expect(keepTmpFilesInMemory("/proc")).toBeUndefined();
    expect(process.env.TMPDIR).toBe("/var/tmp");
    expect(cacheRoot()).toBe("/var/tmp");
  });

  it.runIf(shmHasRoom)("a second load in the same run (a Playwright worker) shares the first one's directory", () => {
    made = keepTmpFilesInMemory();
    process.env.TMPDIR = "/elsewhere";
    expect(keepTmpFilesInMemory()).toBeUndefined();
    expect(process.env.TMPDIR).toBe(made?.dir);
  });

  it.runIf(shmHasRoom)("removes what runs no longer alive left, and nothing of a live one", () => {
    const abandoned = fs.mkdtempSync(path.join(SHM, `linklens-test-${DEAD_PID}-`));
    fs.writeFileSync(path.join(abandoned, "left"), "x");
    const live = fs.mkdtempSync(path.join(SHM, `linklens-test-${process.pid}-`));
    try {
      made = keepTmpFilesInMemory();
      expect(fs.existsSync(abandoned)).toBe(false);
      expect(fs.existsSync(live)).toBe(true);
    } finally {
      fs.rmSync(abandoned, { recursive: true, force: true });
      fs.rmSync(live, { recursive: true, force: true });
    }
  });
});
