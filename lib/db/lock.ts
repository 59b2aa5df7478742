import fs from "node:fs";
import path from "node:path";

/**
 * PGlite is one process only: two processes on one data directory silently lose rows. The first process
 * takes `DATA_DIR/linklens.lock` (O_EXCL) holding its pid; a second one refuses to start while that pid
 * is alive. A lock left by a process that died without cleaning up (kill -9, power loss) is taken over.
 */

export const LOCK_FILE = "linklens.lock";

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the data directory's lock for this process; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      // Stale (its process is gone) or our own from an earlier run in this pid: take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}.`);
}
