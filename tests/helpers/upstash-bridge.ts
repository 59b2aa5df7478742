import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";

/**
 * A local stand-in for the Upstash REST API in front of a real redis-server, speaking what
 * @upstash/redis 1.39 sends (read from its dist/ sources):
 *
 * - `POST /` with one command as a JSON array, `POST /pipeline` and `POST /multi-exec` with an array of
 *   command arrays (auto-pipelining is on by default, so most commands arrive via /pipeline).
 * - `Authorization: Bearer <token>`, checked; 401 otherwise.
 * - `Upstash-Encoding: base64`: every string in a result is base64 (integers stay numbers, arrays are
 *   encoded recursively, nil is null). Single command: `{result}` or, on a Redis error, HTTP 400 `{error}`;
 *   pipeline / multi-exec: HTTP 200 with one `{result}` or `{error}` per command.
 * - @upstash/ratelimit 2.2.0 scripts start with `#!lua flags=allow-key-locking`, a shebang flag real Redis 7
 *   rejects ("Unexpected flag in script shebang"), so the first line is stripped from EVAL / SCRIPT LOAD
 *   bodies. The client calls EVALSHA with the SHA-1 of the *original* script (hard-coded, equal to sha1 of
 *   the text) and falls back to EVAL when the error contains NOSCRIPT; the bridge remembers
 *   original SHA -> stripped SHA on every EVAL so later EVALSHAs hit Redis's cache. An unknown SHA, or a
 *   known one after Redis restarted empty, answers Redis's own NOSCRIPT error, and the client re-EVALs.
 * - When Redis is down, the bridge answers HTTP 503 `{error}` immediately (no offline queue);
 *   `stall(true)` makes it accept requests and never answer, to exercise the client's timeout.
 */
export interface UpstashBridge {
  readonly url: string;
  readonly token: string;
  /** Lower-cased names of the Redis commands executed, in order (for asserting the path taken). */
  readonly commands: string[];
  stall(on: boolean): void;
  /** Resolves once the bridge's Redis connection is ready (e.g. after a Redis restart). */
  redisReady(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

type Json = string | number | null | Json[];
type Reply = [error: Error | null, result: unknown];

export async function startUpstashBridge(options: { redisPort: number; token?: string }): Promise<UpstashBridge> {
  const token = options.token ?? "bridge-test-token";
  const redis = new Redis({
    host: "127.0.0.1",
    port: options.redisPort,
    // Fail fast while Redis is down instead of queueing: the client under test must see the outage.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 100,
    lazyConnect: true,
  });
  redis.on("error", () => {
    // Connection errors are expected in outage tests; ioredis would otherwise print "Unhandled error event".
  });
  await redis.connect();

  const shaMap = new Map<string, string>();
  const commands: string[] = [];
  let stalled = false;

  /** Rewrites scripts for real Redis; returns the args to send and, for SCRIPT LOAD, the SHA to answer. */
  function translate(command: unknown[]): { name: string; args: string[]; answer?: string } {
    const [rawName, ...rest] = command;
    const name = String(rawName).toLowerCase();
    const args = rest.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg)));
    commands.push(name);
    const strip = (script: string): string => {
      if (!script.startsWith("#!")) return script;
      const stripped = script.slice(script.indexOf("\n") + 1);
      shaMap.set(sha1(script), sha1(stripped));
      return stripped;
    };
    if (name === "eval" || name === "eval_ro") {
      args[0] = strip(args[0] ?? "");
    } else if (name === "evalsha" || name === "evalsha_ro") {
      const sha = (args[0] ?? "").toLowerCase();
      args[0] = shaMap.get(sha) ?? sha;
    } else if (name === "script" && args[0]?.toLowerCase() === "load") {
      const original = args[1] ?? "";
      args[1] = strip(original);
      return { name, args, answer: sha1(original) };
    }
    return { name, args };
  }

  async function runBatch(batch: unknown[][], atomic: boolean): Promise<Reply[]> {
    const chain = atomic ? redis.multi() : redis.pipeline();
    const answers: (string | undefined)[] = [];
    for (const command of batch) {
      const { name, args, answer } = translate(command);
      chain.callBuffer(name, ...args);
      answers.push(answer);
    }
    const replies = ((await chain.exec()) ?? []) as Reply[];
    return replies.map(([error, result], i) => [error, answers[i] ?? result]);
  }

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(error) });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (stalled) return; // never answer; the socket is destroyed on close()
    if (req.method !== "POST") return send(res, 405, { error: "POST only" });
    if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: "Unauthorized" });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, { error: "ERR failed to parse command" });
    }
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    if (redis.status !== "ready") return send(res, 503, { error: `Redis is not reachable (${redis.status})` });
    const path = (req.url ?? "/").split("?")[0];

    if (path === "/" || path === "") {
      if (!isCommand(body)) return send(res, 400, { error: "ERR body must be a command array" });
      const [[error, result] = [null, null]] = await runBatch([body], false);
      if (error) return send(res, error.name === "ReplyError" ? 400 : 503, { error: error.message });
      return send(res, 200, { result: encode(result, base64) });
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      if (!Array.isArray(body) || !body.every(isCommand)) {
        return send(res, 400, { error: "ERR body must be an array of command arrays" });
      }
      let replies: Reply[];
      try {
        replies = await runBatch(body, path === "/multi-exec");
      } catch (error) {
        return send(res, 400, { error: error instanceof Error ? error.message : String(error) });
      }
      return send(
        res,
        200,
        replies.map(([error, result]) => (error ? { error: error.message } : { result: encode(result, base64) })),
      );
    }
    return send(res, 404, { error: `unknown path ${path}` });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    commands,
    stall(on) {
      stalled = on;
    },
    async redisReady(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (redis.status !== "ready") {
        if (Date.now() > deadline) throw new Error(`bridge Redis connection not ready: ${redis.status}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

function isCommand(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === "string";
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** Upstash's result encoding: bulk and status strings as base64 (or UTF-8 text), numbers and nil as is. */
function encode(value: unknown, base64: boolean): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  if (Buffer.isBuffer(value)) return base64 ? value.toString("base64") : value.toString("utf8");
  if (typeof value === "string") return base64 ? Buffer.from(value, "utf8").toString("base64") : value;
  if (Array.isArray(value)) return value.map((item) => encode(item, base64));
  if (value instanceof Error) return null;
  return String(value);
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}
