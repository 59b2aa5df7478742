import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { cacheRoot } from "./memory-tmpdir";

/**
 * Fresh embedded databases for test and benchmark servers, copied from one migrated template.
 *
 * PGlite's first open of an empty data directory runs initdb inside WASM: measured here 5 s of wall
 * time and 6 CPU-seconds per server, which the suite paid for every server it started (over a hundred).
 * Copying a migrated, cleanly closed data directory (41 MB) takes 65 ms into memory (about a CPU-second
 * to this machine's ext4 disk: scripts/lib/memory-tmpdir.ts), and the server still runs its migrations on
 * start (none pending), so what is tested is unchanged.
 *
 * The template is keyed by the migrations and the PGlite version, lives in cacheRoot() (beside the runs'
 * directories in memory, else the temp directory) and is shared by every process of a run and by later
 * runs on the machine (building it costs about 7 CPU-seconds): the first caller creates it beside
 * its final name and renames it into place, so processes racing to create it never see a half-made one.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const MIGRATIONS = path.join(ROOT, "lib", "db", "migrations");
const run = promisify(execFile);

let template: Promise<string> | undefined;

/** A new temp directory holding a migrated embedded database, for a server's DATA_DIR. */
export async function freshDataDir(prefix = "linklens-data-"): Promise<string> {
  template ??= ensureTemplate();
  const source = await template;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(path.join(source, "pglite"), path.join(dir, "pglite"), { recursive: true });
  return dir;
}

async function ensureTemplate(): Promise<string> {
  const final = path.join(cacheRoot(), `linklens-template-${templateKey()}`);
  if (fs.existsSync(path.join(final, "pglite"))) return final;
  const building = fs.mkdtempSync(`${final}-building-`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: building };
  delete env.DATABASE_URL;
  await run(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "db-migrate.ts")], { cwd: ROOT, env });
  try {
    fs.renameSync(building, final);
  } catch {
    // Another process renamed its copy into place first: use that one.
    fs.rmSync(building, { recursive: true, force: true });
  }
  return final;
}

/** Changes whenever a migration or the PGlite version does. */
function templateKey(): string {
  const hash = createHash("sha256");
  const pglite = JSON.parse(
    fs.readFileSync(path.join(ROOT, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version);
  for (const entry of fs
    .readdirSync(MIGRATIONS, { recursive: true, withFileTypes: true })
    .sort((a, b) => fullPath(a).localeCompare(fullPath(b)))) {
    if (!entry.isFile()) continue;
    hash.update(path.relative(MIGRATIONS, fullPath(entry)));
    hash.update(fs.readFileSync(fullPath(entry)));
  }
  return hash.digest("hex").slice(0, 16);
}

function fullPath(entry: fs.Dirent): string {
  return path.join(entry.parentPath, entry.name);
}
