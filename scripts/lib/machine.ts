import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { descendants } from "./processes";

/** Facts about this machine and the processes under test, read from Linux /proc. */

/** Resident memory of one process in bytes (VmRSS), 0 when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // the process ended while we looked
  }
}

export interface TreeMemory {
  /** The server process itself (Node: Next.js, worker threads, render queue). */
  serverRss: number;
  /** Every Chromium process under the server, summed (shared pages are counted once per process). */
  chromiumRss: number;
  chromiumProcesses: number;
  /** Chromium renderer processes: one per live page or context, so a leaked page shows up here. */
  chromiumRenderers: number;
}

/** Memory of a server and its Chromium descendants. */
export function treeMemory(serverPid: number): TreeMemory {
  const chromium = descendants(serverPid).filter(({ cmdline }) => /chrom/i.test(cmdline));
  return {
    serverRss: rssBytes(serverPid),
    chromiumRss: chromium.reduce((sum, { pid }) => sum + rssBytes(pid), 0),
    chromiumProcesses: chromium.length,
    chromiumRenderers: chromium.filter(({ cmdline }) => cmdline.includes("--type=renderer")).length,
  };
}

/** The 1-, 5- and 15-minute load averages. */
export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

function cpuModel(): string {
  const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
  return match?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown";
}

function chromiumVersion(executable: string): string {
  try {
    return execFileSync(executable, ["--version"], {
      encoding: "utf8",
      timeout: 10_000,
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return `unknown (${executable} --version failed)`;
  }
}

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  node: string;
  chromium: string;
  kernel: string;
}

export function describeMachine(chromiumExecutable: string): Machine {
  return {
    cpu: cpuModel(),
    cores: os.cpus().length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    chromium: chromiumVersion(chromiumExecutable),
    kernel: `${os.type()} ${os.release()}`,
  };
}
