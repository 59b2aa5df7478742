import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, type Database } from "@/lib/db";
import { BACKENDS, closeAll, useFreshDatabase } from "./harness";

/**
 * crawler_access_changed is a new alert type (migration 0008_crawler_access; google-view.md §3): on PGlite
 * and PostgreSQL, a database migrated up to 0007 holds notification preferences and webhook endpoints
 * saved before it existed. The migration switches it on for every preference (a new type is on until
 * turned off) and for endpoints that took every type of the time ("every alert"), and leaves an
 * endpoint that chose some types with its choice. Rows are written as plain SQL: the tables as they were.
 */

const LAST_BEFORE = "0007_verdict_history";
const TYPES_BEFORE = [
  "link_missing",
  "link_restored",
  "link_broken",
  "link_fixed",
  "rel_changed",
  "anchor_changed",
  "page_noindex",
  "page_unreachable",
  "link_expiring",
  "verdict_changed",
];
let before = "";

beforeAll(() => {
  // The migrations as they were before 0008: the same files, the journal cut after 0007.
  before = fs.mkdtempSync(path.join(os.tmpdir(), "linklens-migrations-"));
  fs.mkdirSync(path.join(before, "meta"));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === LAST_BEFORE);
  expect(cut).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut + 1);
  fs.writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
});

afterAll(async () => {
  await closeAll();
  fs.rmSync(before, { recursive: true, force: true });
});

const array = (types: readonly string[]) =>
  sql`ARRAY[${sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  )}]::text[]`;

describe.each(BACKENDS)("crawler_access_changed switched on for rows saved before it (%s)", (backend) => {
  let database: Database;
  const org = `crawlers-migration-${backend}`;

  beforeAll(async () => {
    database = await useFreshDatabase(backend, { migrations: before });
    const { db } = database;
    await db.execute(
      sql`INSERT INTO "organization" ("id", "name", "slug", "created_at") VALUES (${org}, 'Org', ${org}, now())`,
    );
    for (const id of ["every", "some", "none"])
      await db.execute(
        sql`INSERT INTO "user" ("id", "name", "email") VALUES (${`${org}-${id}`}, ${id}, ${`${id}-${backend}@migration.example`})`,
      );
    const preferences: Array<[string, readonly string[]]> = [
      ["every", TYPES_BEFORE],
      ["some", ["link_missing", "verdict_changed"]],
      ["none", []],
    ];
    for (const [id, types] of preferences)
      await db.execute(
        sql`INSERT INTO "notification_preference" ("user_id", "organization_id", "email", "types", "digest_hour_utc") VALUES (${`${org}-${id}`}, ${org}, 'immediate', ${array(types)}, 8)`,
      );
    const endpoints: Array<[string, readonly string[]]> = [
      ["every", TYPES_BEFORE],
      ["some", ["link_missing", "link_restored"]],
      ["pings-only", []],
    ];
    for (const [id, types] of endpoints)
      await db.execute(
        sql`INSERT INTO "webhook_endpoint" ("id", "organization_id", "url", "kind", "types", "secret_ciphertext") VALUES (${`${org}-${id}`}, ${org}, 'https://hooks.example.com/x', 'standard', ${array(types)}, 'x')`,
      );
    await database.migrate();
  }, 120_000);

  const typesOf = async (table: "notification_preference" | "webhook_endpoint", key: string) => {
    const column = table === "notification_preference" ? sql`"user_id"` : sql`"id"`;
    const result = (await database.db.execute(
      sql`SELECT "types" FROM ${sql.identifier(table)} WHERE ${column} = ${`${org}-${key}`}`,
    )) as { rows: unknown[] };
    return (result.rows[0] as { types: string[] }).types;
  };

  it("every preference gets the new type, whatever it chose before", async () => {
    expect(await typesOf("notification_preference", "every")).toEqual([...TYPES_BEFORE, "crawler_access_changed"]);
    expect(await typesOf("notification_preference", "some")).toEqual([
      "link_missing",
      "verdict_changed",
      "crawler_access_changed",
    ]);
    expect(await typesOf("notification_preference", "none")).toEqual(["crawler_access_changed"]);
  });

  it("a webhook endpoint that took every type gets it; one that chose some keeps its choice", async () => {
    expect(await typesOf("webhook_endpoint", "every")).toEqual([...TYPES_BEFORE, "crawler_access_changed"]);
    expect(await typesOf("webhook_endpoint", "some")).toEqual(["link_missing", "link_restored"]);
    expect(await typesOf("webhook_endpoint", "pings-only")).toEqual([]);
  });

  it("monitors have the new columns, empty until their next check", async () => {
    const result = (await database.db.execute(
      sql`SELECT "page_crawlers", "page_crawlers_read_at", "blocked_crawlers" FROM "monitor" LIMIT 0`,
    )) as { rows: Record<string, unknown>[]; fields?: { name: string }[] };
    expect(result.fields?.map((field) => field.name) ?? Object.keys(result.rows[0] ?? {})).toEqual([
      "page_crawlers",
      "page_crawlers_read_at",
      "blocked_crawlers",
    ]);
  });
});
