import { describe, expect, it } from "vitest";
import { redactConsole } from "@/server/redacted-console";

/** What the process prints through the console (Next's own messages included) is redacted like the log. */
describe("redactConsole", () => {
  it("formats each call as the console would, then prints it without the token", () => {
    const printed: Array<[string, unknown[]]> = [];
    const record =
      (method: string) =>
      (...args: unknown[]) =>
        void printed.push([method, args]);
    const target = {
      log: record("log"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
      debug: record("debug"),
      trace: record("trace"),
    };
    redactConsole(target);
    const token = "Abcdefghijklmnopqrstuvwxyz012345";
    target.error(`Failed to handle request for /r/${token}?page=2`);
    target.warn("%s answered %d", `/api/auth/reset-password/${token}`, 404);
    target.log(new Error(`boom at /r/${token}/export.csv`));
    target.info({ url: `https://site.example/r/${token}` });
    expect(JSON.stringify(printed)).not.toContain(token);
    expect(printed[0]).toEqual(["error", ["Failed to handle request for /r/[redacted]?page=2"]]);
    expect(printed[1]).toEqual(["warn", ["/api/auth/reset-password/[redacted] answered 404"]]);
    expect(String(printed[2]?.[1][0])).toMatch(/^Error: boom at \/r\/\[redacted\]\/export\.csv\n\s+at /);
    expect(printed[3]).toEqual(["info", ["{ url: 'https://site.example/r/[redacted]' }"]]);
  });
});
