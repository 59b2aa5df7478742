import { readFileSync, readdirSync } from "node:fs";

/** Every live descendant of a process (Linux /proc), with its command line. */
export function descendants(rootPid: number): { pid: number; cmdline: string }[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces; the parent pid follows the state field.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const parent = Number(fields[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(entry));
      children.set(parent, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: { pid: number; cmdline: string }[] = [];
  const queue = [...(children.get(rootPid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      continue;
    }
    found.push({ pid, cmdline });
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** True while a pid exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The browser's main process among a server's descendants (Chromium children carry --type=). */
export function browserMainPids(rootPid: number): number[] {
  return descendants(rootPid)
    .filter(({ cmdline }) => /chrom/i.test(cmdline) && !cmdline.includes("--type="))
    .map(({ pid }) => pid);
}
