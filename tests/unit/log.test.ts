import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The structured log redacts credentials in paths on its own (lib/log.ts → lib/secret-paths.ts): any
 * field, an error's message and stack included. Run in a child process, since the logger writes to the
 * process's own stdout.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const TOKEN = "FlcKL40cSKoazDfI2LBldV2zsJ7deRdl";

describe("log", () => {
  it("never writes a report or reset token, whichever field carries it", () => {
    const script = `
      const loaded = await import("./lib/log.ts");
      const { log } = loaded.log ? loaded : loaded.default;
      log.info({ path: "/r/${TOKEN}/export.csv", status: 200 }, "request");
      log.warn({ err: new Error("report check failed for /r/${TOKEN}") }, "report check failed");
      log.error({ url: "https://linklens.example/api/auth/reset-password/${TOKEN}?callbackURL=%2Freset-password" }, "odd");
    `;
    const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, LOG_LEVEL: "info" },
    });
    const lines = output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(output).not.toContain(TOKEN);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ path: "/r/[redacted]/export.csv", status: 200, msg: "request" });
    expect(lines[1]).toMatchObject({ err: { message: "report check failed for /r/[redacted]" } });
    expect(lines[2]).toMatchObject({
      url: "https://linklens.example/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password",
    });
  });

  it("writes out every buffered line when the process exits at once", () => {
    // 4 MiB of lines, then process.exit with most of them still in the buffer: the exit flush writes them.
    const script = `
      const loaded = await import("./lib/log.ts");
      const { log } = loaded.log ? loaded : loaded.default;
      const filler = "x".repeat(1000);
      for (let i = 0; i < 4096; i++) log.info({ i, filler }, "line");
      process.exit(0);
    `;
    const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, LOG_LEVEL: "info" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = output.trim().split("\n");
    expect(lines).toHaveLength(4096);
    expect(JSON.parse(lines[4095] ?? "{}")).toMatchObject({ i: 4095, msg: "line" });
  });

  it("never holds up the thread that logs while stdout is not being read", async () => {
    // 4 MiB of log lines into a pipe nobody reads (a pipe holds 64 KiB): a synchronous logger blocks on
    // the first full pipe and never reaches "logged"; this one buffers them and goes on at once.
    const script = `
      const loaded = await import("./lib/log.ts");
      const { log } = loaded.log ? loaded : loaded.default;
      const filler = "x".repeat(1000);
      for (let i = 0; i < 4096; i++) log.info({ i, filler }, "line");
      process.stderr.write("logged\\n");
      await new Promise((resolve) => process.stdin.once("data", resolve));
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "info" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      child.stdout.pause();
      const said = await new Promise<string>((resolve) => {
        let text = "";
        child.stderr.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("logged")) resolve(text);
        });
        child.once("exit", () => resolve(text));
      });
      expect(said).toContain("logged");
      // Then everything buffered reaches stdout, in order, once it is read.
      let lines = 0;
      child.stdout.on("data", (chunk: Buffer) => (lines += chunk.toString().split("\n").length - 1));
      child.stdout.resume();
      child.stdin.end("go\n");
      await new Promise((resolve) => child.once("exit", resolve));
      expect(lines).toBe(4096);
    } finally {
      child.kill();
    }
  }, 30_000);
});
