import fs from "node:fs";

/**
 * Who holds a lock, in a form a reused pid cannot fake. On Linux the triple (boot id, pid, start time
 * in clock ticks since boot, from /proc/<pid>/stat) names one process instance: after the holder dies its
 * pid may be given to any other process, but that one started later. Elsewhere (no /proc) only the pid
 * can be checked.
 */
export interface ProcessIdentity {
  pid: number;
  /** /proc/sys/kernel/random/boot_id; null where there is no /proc. */
  bootId: string | null;
  /** Field 22 of /proc/<pid>/stat; null where there is no /proc. */
  startTime: string | null;
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function bootId(): string | null {
  return readOrNull("/proc/sys/kernel/random/boot_id")?.trim() || null;
}

/** The start time of a running process; null when it is gone (or there is no /proc). */
function startTimeOf(pid: number | "self"): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count fields after the last ")".
  // The field after ")" is field 3, so start time (field 22) is the 20th.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

/** Whether a process of that pid runs now (any process: the pid alone cannot tell a reused one). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function thisProcess(): ProcessIdentity {
  return { pid: process.pid, bootId: bootId(), startTime: startTimeOf("self") };
}

/** Whether the process instance `owner` describes is still running (not merely its pid). */
export function isRunning(owner: ProcessIdentity): boolean {
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false;
  const boot = bootId();
  if (boot === null) return pidExists(owner.pid);
  // A lock from before a reboot, or one written where there was no /proc, names no process of this boot.
  if (owner.bootId !== boot || owner.startTime === null) return false;
  return startTimeOf(owner.pid) === owner.startTime;
}

/** Parses an owner record read from disk; null when it is not one (torn or foreign content). */
export function parseIdentity(text: string): ProcessIdentity | null {
  try {
    const value = JSON.parse(text) as Partial<ProcessIdentity>;
    if (typeof value.pid !== "number") return null;
    const optional = (field: unknown) => (typeof field === "string" ? field : null);
    return { pid: value.pid, bootId: optional(value.bootId), startTime: optional(value.startTime) };
  } catch {
    return null;
  }
}
