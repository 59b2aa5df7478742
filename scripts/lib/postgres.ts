import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "./server-process";

/**
 * A throw-away real PostgreSQL (Debian's package) on 127.0.0.1: `initdb` in a temp directory, then
 * `postgres` on a free port, both as the `postgres` user when we are root (initdb refuses root).
 * No fsync: the cluster is deleted at the end anyway.
 */
export interface PostgresServer {
  readonly port: number;
  /** The process we started (runuser or the postmaster): its tree is the cluster (benchmarks read its CPU time). */
  readonly pid: number;
  /** A URL of the `postgres` database (superuser, trust auth). */
  readonly url: string;
  /** Creates a fresh database and returns its URL (one per test file or per test keeps them apart). */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql (or set PG_BIN_DIR).");
  return path.join(root, versions[0], "bin");
}

const asRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL binary, as the postgres user when we are root. */
function command(bin: string, args: string[]): [string, string[]] {
  const file = path.join(binDir(), bin);
  return asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

let counter = 0;

export async function startPostgres(): Promise<PostgresServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linklens-pg-"));
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "sock");
  fs.mkdirSync(socketDir, { mode: 0o777 });
  fs.chmodSync(socketDir, 0o777);
  if (asRoot) execFileSync("chown", ["postgres", dir, socketDir]);
  const [initFile, initArgs] = command("initdb", [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "-A",
    "trust",
    "--no-sync",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  execFileSync(initFile, initArgs, { stdio: "pipe" });

  const port = await freePort();
  const [file, args] = command("postgres", [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-k",
    socketDir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    "-c",
    "max_connections=200",
  ]);
  let output = "";
  const child: ChildProcess = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`postgres did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    port,
    pid: child.pid ?? 0,
    url,
    async createDatabase(name = `t${process.pid}_${Date.now()}_${counter++}`) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      // runuser does not forward signals: signal the postmaster itself (its pid heads postmaster.pid).
      const pidFile = path.join(dataDir, "postmaster.pid");
      const pid = fs.existsSync(pidFile)
        ? Number.parseInt(fs.readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10)
        : NaN;
      if (child.exitCode === null) {
        if (Number.isInteger(pid) && pid > 0)
          process.kill(pid, "SIGINT"); // fast shutdown
        else child.kill("SIGINT");
      }
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
