import { execFileSync } from "node:child_process";
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
});
