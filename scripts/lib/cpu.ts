import { readFileSync } from "node:fs";
import { descendants } from "./processes";

/**
 * CPU time of a process tree (Linux /proc), for per-check costs in the benchmarks. A process's own time
 * is utime + stime; the time of its children that ended and were waited for is in its cutime + cstime
 * (recursively), so the sum of all four over the LIVE processes of the tree counts every process that
 * ever ran in it once, Chromium's short-lived renderers included.
 */

const TICKS_PER_SECOND = 100; // sysconf(_SC_CLK_TCK) on Linux

function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name: state is field 3; utime, stime, cutime, cstime are fields 14–17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return 0; // ended while we looked
  }
}

/** CPU seconds used so far by `rootPid` and everything under it. */
export function treeCpuSeconds(rootPid: number): number {
  return [rootPid, ...descendants(rootPid).map(({ pid }) => pid)].reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
}
