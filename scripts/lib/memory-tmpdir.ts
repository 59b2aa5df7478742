import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pidExists } from "../../lib/db/process-identity";

/**
 * A test run's temporary files in memory: when /dev/shm is a tmpfs with room to spare, the run's TMPDIR
 * becomes a directory of its own there, and every process the run starts inherits it — the embedded
 * databases copied for each suite and server, the PostgreSQL cluster, the browsers' profiles.
 *
 * Measured on the two-core CI machine (docs/testing.md): copying the 41 MB migrated template to the
 * ext4 disk cost about 1 CPU-second a copy, most of it the kernel's, against 65 ms into tmpfs, and a
 * run makes over a hundred copies. Where there is no such tmpfs (another OS, a small container) the run
 * keeps the system's TMPDIR.
 *
 * The directory is named after the process that made it, so a run killed before its cleanup leaves
 * nothing for long: the next run removes the directories of processes no longer alive. Playwright loads
 * its configuration in the runner and again in each worker: the variable below makes them share one.
 * Caches that serve later runs too (the migrated template) go beside the run directories: cacheRoot().
 */
const DEFAULT_ROOT = "/dev/shm";
const TMPFS_MAGIC = 0x01021994;
/** Room the run may need at its peak (two servers' databases per worker, the cluster, browser profiles). */
const REQUIRED_FREE_BYTES = 4 * 1024 ** 3;
const PREFIX = "linklens-test-";
const RUN_DIRECTORY = /^linklens-test-(\d+)-/;
/** The run's directory, for the processes it starts. */
export const MEMORY_TMPDIR_ENV = "LINKLENS_MEMORY_TMPDIR";

export interface MemoryTmpdir {
  dir: string;
  /** Removes the directory and everything in it. */
  remove: () => void;
}

/** Points TMPDIR at a fresh directory in memory; undefined when the machine has no tmpfs to spare. */
export function keepTmpFilesInMemory(root = DEFAULT_ROOT): MemoryTmpdir | undefined {
  const inherited = process.env[MEMORY_TMPDIR_ENV];
  if (inherited && fs.existsSync(inherited)) {
    process.env.TMPDIR = inherited;
    return undefined;
  }
  if (!hasMemoryRoom(root)) return undefined;
  removeAbandoned(root);
  const dir = fs.mkdtempSync(path.join(root, `${PREFIX}${process.pid}-`));
  // As /tmp: the PostgreSQL cluster's directory is made in it as the `postgres` user when we are root.
  fs.chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  process.env[MEMORY_TMPDIR_ENV] = dir;
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Where caches that outlive a run go: the memory root when this run's files are there, else the temp dir. */
export function cacheRoot(): string {
  const run = process.env[MEMORY_TMPDIR_ENV];
  return run ? path.dirname(run) : os.tmpdir();
}

/** Whether `root` is a writable tmpfs with room for a run. */
export function hasMemoryRoom(root = DEFAULT_ROOT): boolean {
  try {
    const stats = fs.statfsSync(root);
    fs.accessSync(root, fs.constants.W_OK);
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= REQUIRED_FREE_BYTES;
  } catch {
    return false;
  }
}

function removeAbandoned(root: string): void {
  for (const name of fs.readdirSync(root)) {
    const pid = RUN_DIRECTORY.exec(name)?.[1];
    if (pid !== undefined && !pidExists(Number(pid)))
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}
