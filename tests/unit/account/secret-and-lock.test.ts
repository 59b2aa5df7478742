import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MissingSecretError, resolveAuthSecret } from "../../../lib/db/secret";
import { DataDirLockedError, lockDataDir, LOCK_FILE } from "../../../lib/db/lock";

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

describe("embedded data-directory lock", () => {
  it("refuses while another live process holds it, takes over a dead one's", () => {
    const dir = tmp();
    // A live process that is not us: the parent of this worker.
    fs.writeFileSync(path.join(dir, LOCK_FILE), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/in use by another LinkLens process/);
    // A process that has exited.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    fs.writeFileSync(path.join(dir, LOCK_FILE), dead);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
