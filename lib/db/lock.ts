import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isRunning, parseIdentity, thisProcess } from "./process-identity";

/**
 * PGlite is one process only: two processes on one data directory silently lose rows. The lock is the
 * directory DATA_DIR/linklens.lock holding one file, owner-<nonce>.json, that names the process holding it
 * (lib/db/process-identity.ts: a pid checked against its start time, so a reused pid does not count).
 *
 * Taking it must be atomic even when two processes find the same stale lock at once; a single pid file
 * was not (each removed the stale file by its path, and one could remove the file the other had just
 * written). So nothing here ever removes by a shared path:
 * - a process builds its own directory with its owner file inside, then renames it onto linklens.lock;
 *   rename(2) onto a directory succeeds only while that directory is absent or empty, so one process wins;
 * - a stale owner file is removed by its own unique name, and the emptied directory by rmdir, which fails
 *   once another process's owner file is inside. Neither can touch a lock someone else has just taken.
 */

export const LOCK_FILE = "linklens.lock";
const OWNER = /^owner-[0-9a-f]+\.json$/;
/** Each round either takes the lock, refuses, or clears one stale layer; a few rounds always suffice. */
const ROUNDS = 20;

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${path.resolve(dataDir)} is in use by another LinkLens process (pid ${pid}). ` +
        "The embedded database serves one process only: stop the other process, use another DATA_DIR, " +
        "or set DATABASE_URL to a PostgreSQL server to run several instances.",
    );
    this.name = "DataDirLockedError";
  }
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Runs `step`, ignoring the listed errno codes (the file is already gone, someone else got there first). */
function unless(codes: string[], step: () => void): void {
  try {
    step();
  } catch (error) {
    if (!codes.includes(codeOf(error) ?? "")) throw error;
  }
}

/**
 * Clears what keeps the lock from being taken, unless its holder is alive: then throws DataDirLockedError.
 * Safe against every other process doing the same at the same time (see the header).
 */
function clearStale(dataDir: string, lockDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(lockDir);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return;
    // The lock file of an earlier version (a bare pid, which cannot be checked). unlink never removes a directory.
    if (codeOf(error) === "ENOTDIR") return unless(["ENOENT", "EISDIR", "EPERM"], () => fs.unlinkSync(lockDir));
    throw error;
  }
  if (names.length === 0) return unless(["ENOENT", "ENOTEMPTY", "EEXIST"], () => fs.rmdirSync(lockDir));
  for (const name of names) {
    const file = path.join(lockDir, name);
    if (!OWNER.test(name)) {
      // Not something a LinkLens process puts there (owners arrive inside the renamed directory).
      fs.rmSync(file, { recursive: true, force: true });
      continue;
    }
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if (codeOf(error) === "ENOENT") continue;
      throw error;
    }
    const owner = parseIdentity(text);
    if (owner && isRunning(owner)) throw new DataDirLockedError(dataDir, owner.pid);
    unless(["ENOENT"], () => fs.unlinkSync(file));
  }
}

/** Takes the data directory's lock for this process; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockDir = path.join(dataDir, LOCK_FILE);
  const nonce = crypto.randomBytes(12).toString("hex");
  const ownerFile = `owner-${nonce}.json`;
  const staging = path.join(dataDir, `.${LOCK_FILE}-${nonce}`);
  fs.mkdirSync(staging, { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(staging, ownerFile), JSON.stringify(thisProcess()), { mode: 0o600 });
    for (let round = 0; round < ROUNDS; round += 1) {
      try {
        fs.renameSync(staging, lockDir);
        return releaser(lockDir, ownerFile);
      } catch (error) {
        // Taken (EEXIST/ENOTEMPTY; EPERM on Windows) or an earlier version's lock file (ENOTDIR).
        if (!["EEXIST", "ENOTEMPTY", "EPERM", "ENOTDIR"].includes(codeOf(error) ?? "")) throw error;
      }
      clearStale(dataDir, lockDir);
    }
    throw new Error(`Could not take the lock ${lockDir}.`);
  } finally {
    // Still here only when the lock was not taken.
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function releaser(lockDir: string, ownerFile: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    unless(["ENOENT"], () => fs.unlinkSync(path.join(lockDir, ownerFile)));
    // Another process may already have moved in (then the directory is not empty and stays).
    unless(["ENOENT", "ENOTEMPTY", "EEXIST"], () => fs.rmdirSync(lockDir));
  };
  process.once("exit", release);
  return release;
}
