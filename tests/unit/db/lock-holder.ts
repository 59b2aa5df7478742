/**
 * A child process for tests/unit/db/lock.test.ts: it runs lib/db/lock.ts in a process of its own, as a
 * second LinkLens server would. Driven over IPC:
 *   { lock: dirs, at }  spins until `at` (process.hrtime.bigint() nanoseconds: one monotonic clock for
 *                       every process on the machine), then tries the lock of each data directory in turn
 *                       and answers one outcome per directory. Two children sweeping the same list drift
 *                       in and out of step, so many directories see a close race.
 *   { release: true }   lets every lock it holds go.
 */
import { DataDirLockedError, lockDataDir } from "../../../lib/db/lock";

export type HolderCommand = { lock: string[]; at: string } | { release: true };
/** "locked", "refused" (DataDirLockedError), or "error: …" for anything else thrown. */
export type Outcome = string;
export type HolderReply = { ready: true } | { outcomes: Outcome[] } | { released: number };

const held: (() => void)[] = [];

function attempt(dataDir: string): Outcome {
  try {
    held.push(lockDataDir(dataDir));
    return "locked";
  } catch (error) {
    return error instanceof DataDirLockedError ? "refused" : `error: ${(error as Error).message}`;
  }
}

process.on("message", (command: HolderCommand) => {
  const reply = (message: HolderReply) => process.send?.(message);
  if ("release" in command) {
    const count = held.length;
    for (const release of held.splice(0)) release();
    reply({ released: count });
    return;
  }
  const at = BigInt(command.at);
  while (process.hrtime.bigint() < at) {
    // Busy-wait: a timer would let the two children drift apart by a scheduler tick.
  }
  reply({ outcomes: command.lock.map(attempt) });
});
process.send?.({ ready: true } satisfies HolderReply);
