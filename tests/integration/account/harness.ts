import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { openDatabase, setDatabase, type Database } from "@/lib/db";
import { outbox } from "@/lib/db/schema";
import { resetAuth } from "@/lib/auth";
import { resetAuthLimiters } from "@/lib/auth/limits";
import { handleAuthRequest } from "@/lib/auth/auth-endpoint";
import { TRUSTED_SERVER_FLAG } from "@/lib/http/client-key";
import { freshDataDir } from "../../../scripts/lib/embedded-template";
import { startPostgres, type PostgresServer } from "../../helpers/postgres";

/**
 * The account suites run in-process against the real route handlers, Better Auth and a real database:
 * the embedded PGlite and a throw-away PostgreSQL cluster (describe.each over BACKENDS).
 */

export const ORIGIN = "http://localhost:3000";

// As under our production server (server/main.ts): the client key header is ours, set per request.
(globalThis as Record<symbol, unknown>)[TRUSTED_SERVER_FLAG] = true;
export const BACKENDS = ["pglite", "postgres"] as const;
export type Backend = (typeof BACKENDS)[number];

let postgres: PostgresServer | undefined;
const cleanups: Array<() => Promise<void>> = [];

/**
 * Opens a fresh, migrated database of the backend and makes it the process database. `migrations`: only
 * those of that folder (a test of a later migration's backfill; PGlite then starts from an empty directory,
 * not from the fully migrated template).
 */
export async function useFreshDatabase(backend: Backend, options: { migrations?: string } = {}): Promise<Database> {
  let database: Database;
  if (backend === "postgres") {
    postgres ??= await startPostgres();
    database = openDatabase({ databaseUrl: await postgres.createDatabase(), dataDir: "" });
  } else {
    const dir = options.migrations
      ? fs.mkdtempSync(path.join(os.tmpdir(), "linklens-pglite-"))
      : await freshDataDir("linklens-pglite-");
    database = openDatabase({ dataDir: dir });
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  await database.migrate(options.migrations);
  setDatabase(database);
  resetAuth();
  resetAuthLimiters();
  cleanups.push(() => database.close());
  return database;
}

export async function closeAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await postgres?.stop();
  postgres = undefined;
}

type RouteHandler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /** Default: the site's origin on mutations (what a browser sends); null sends none. */
  origin?: string | null;
}

/** Builds the Request a browser on the site would send. */
export function makeRequest(method: string, pathname: string, options: CallOptions = {}): Request {
  const headers = new Headers({ host: "localhost:3000", "x-linklens-client-key": "127.0.0.1", ...options.headers });
  if (options.cookie) headers.set("cookie", options.cookie);
  const origin = options.origin === undefined ? (method === "GET" ? null : ORIGIN) : options.origin;
  if (origin) headers.set("origin", origin);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.body);
  }
  return new Request(`${ORIGIN}${pathname}`, { method, headers, body });
}

export async function call(handler: RouteHandler, method: string, pathname: string, options: CallOptions = {}) {
  const response = await handler(makeRequest(method, pathname, options), {
    params: Promise.resolve(options.params ?? {}),
  });
  const text = await response.text();
  // Downloads (CSV exports) are not JSON: their text is the answer.
  const isJson = (response.headers.get("content-type") ?? "").startsWith("application/json");
  const json = text && isJson ? (JSON.parse(text) as Record<string, unknown>) : null;
  return { status: response.status, json, headers: response.headers, text };
}

/** Cookie header from a response's Set-Cookie lines (name=value pairs; deletions dropped). */
export function cookieFrom(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0] ?? "", pair] as const),
  );
  for (const line of headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    const name = pair.split("=")[0] ?? "";
    if (/max-age=0/i.test(line) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

export async function auth(method: string, pathname: string, options: CallOptions = {}) {
  return call(handleAuthRequest as RouteHandler, method, `/api/auth${pathname}`, options);
}

/** Signs a new user up; returns the session cookie. */
export async function signUp(email: string, password = "correct horse battery", name = email.split("@")[0] ?? "x") {
  const result = await auth("POST", "/sign-up/email", { body: { email, password, name } });
  if (result.status !== 200) throw new Error(`sign-up failed: ${result.status} ${result.text}`);
  return cookieFrom(result.headers);
}

export async function signIn(email: string, password = "correct horse battery") {
  const result = await auth("POST", "/sign-in/email", { body: { email, password } });
  if (result.status !== 200) throw new Error(`sign-in failed: ${result.status} ${result.text}`);
  return cookieFrom(result.headers);
}

/** The newest outbox row to an address (emails are only written, never sent, in these suites). */
export async function lastEmailTo(database: Database, email: string) {
  const [row] = await database.db
    .select()
    .from(outbox)
    .where(eq(outbox.recipient, email.toLowerCase()))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  if (!row) throw new Error(`no email to ${email}`);
  return row;
}

/** The first absolute URL in an email's text. */
export function linkIn(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[0];
}

/** Follows the address's newest verification email (as its owner would), proving the address. */
export async function verifyEmail(database: Database, email: string): Promise<void> {
  const row = await lastEmailTo(database, email);
  if (row.kind !== "verify_email") throw new Error(`newest email to ${email} is ${row.kind}`);
  const url = new URL(linkIn(row.text));
  const result = await auth("GET", `${url.pathname.replace(/^\/api\/auth/, "")}${url.search}`);
  if (result.status >= 400) throw new Error(`verify: ${result.status} ${result.text}`);
}
