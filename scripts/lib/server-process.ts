import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { freshDataDir } from "./embedded-template";
import { TEST_CHROMIUM } from "./chromium";

/**
 * Starts the real production server (`dist/server.cjs`, built by `npm run build`) on a free loopback
 * port with the given environment, and waits until it answers its health route.
 */
export interface RunningServer {
  baseUrl: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

const ROOT = path.resolve(__dirname, "..", "..");

export async function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  // Each server gets its own embedded database unless the test names one (PGlite serves one process).
  const ownDataDir = env.DATA_DIR || env.DATABASE_URL ? null : await freshDataDir();
  let log = "";
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "server.cjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      LOG_LEVEL: "warn",
      PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
      ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );

  // A start deadline (a hung start fails the test), not a margin: a start took 61 s at load average 25.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log}`);
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  return {
    baseUrl,
    port,
    process: child,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The five fields of every Error body, and nothing else. */
export const ERROR_KEYS = ["docs", "error", "errorCode", "hint", "success"];

/** A browser-like User-Agent, so URL-mode requests pass the bot check. */
export const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
