import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MissingSecretError, resolveAuthSecret } from "../../../lib/db/secret";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "linklens-unit-"));

describe("BETTER_AUTH_SECRET", () => {
  it("is required with DATABASE_URL", () => {
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x/y", DATA_DIR: tmp() })).toThrow(MissingSecretError);
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x/y", DATA_DIR: tmp() })).toThrow(/BETTER_AUTH_SECRET/);
  });

  it("the embedded default generates one with mode 0600 and keeps it", () => {
    const dir = tmp();
    const first = resolveAuthSecret({ DATA_DIR: dir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
    expect(resolveAuthSecret({ DATA_DIR: dir })).toBe(first);
    expect(resolveAuthSecret({ DATA_DIR: dir, BETTER_AUTH_SECRET: "x".repeat(40) })).toBe("x".repeat(40));
  });
});
