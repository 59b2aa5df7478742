import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { freePort } from "./server";

/**
 * A throw-away real `redis-server` on 127.0.0.1: no persistence, so a restart starts empty, the way a
 * replaced Redis would. Tests can stop it mid-run and start it again on the same port.
 */
export interface RedisServer {
  readonly port: number;
  /** Kills the server (SIGKILL: no goodbye, like a crash or a network cut) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers PING. */
  start(): Promise<void>;
  readonly running: boolean;
}

const REDIS_BIN = process.env.REDIS_SERVER_BIN ?? "/usr/bin/redis-server";

/** Starts redis-server on a free port (or `port`) and resolves once it answers PING. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | undefined;
  let output = "";

  async function start(): Promise<void> {
    if (child) return;
    output = "";
    const spawned = spawn(
      REDIS_BIN,
      ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = spawned;
    spawned.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    spawned.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    spawned.once("exit", () => {
      if (child === spawned) child = undefined;
    });
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(chosen))) {
      if (!child || Date.now() > deadline) {
        await stop();
        throw new Error(`redis-server did not start on port ${chosen}:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    if (!running) return;
    if (running.exitCode !== null || running.signalCode !== null) {
      child = undefined;
      return;
    }
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGKILL");
    await exited;
    child = undefined;
  }

  await start();
  return {
    port: chosen,
    start,
    stop,
    get running() {
      return child !== undefined;
    },
  };
}

/** One PING over a fresh connection; false on any error or after 500 ms. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}
