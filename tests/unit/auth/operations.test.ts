import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IMPLEMENTED, OPERATION } from "@/lib/auth/account-route";
import { assertAnswerMatches, withHeaders } from "@/lib/auth/operation-answer";
import { leastRole, statements, type Permission } from "@/lib/auth/roles";
import type { AccountOperation } from "@/lib/schemas/operation-entry";
import { ACCOUNT_OPERATIONS, OPERATIONS } from "@/lib/schemas/operations";

/**
 * The operation catalog is each account operation's one description (lib/schemas/operations.ts): its
 * route takes the permission, query, body, cap and status from the entry, so what is left to hold
 * together is which entry a route names, the least role the docs give against the permission the guard
 * asks for, and (in tests, on every answer) the answer against the entry's schema.
 */

const ROOT = path.resolve(__dirname, "../../..");
const ACCOUNT_DIR = path.join(ROOT, "app/api/account");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** `app/api/account/links/[id]/history/route.ts` → `/api/account/links/{id}/history`. */
function templateOf(file: string): string {
  const relative = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/");
  return `/${relative}`.replace(/\[(\w+)\]/g, "{$1}");
}

type RouteHandler = { [IMPLEMENTED]?: boolean; [OPERATION]?: AccountOperation };

describe("routes and their catalog entries", () => {
  it("every route method serves the entry of its own method and path, and every entry is served once", async () => {
    const served = new Map<string, string[]>();
    const mismatches: string[] = [];
    for (const file of routeFiles(ACCOUNT_DIR)) {
      const routeModule = (await import(file)) as Record<string, RouteHandler>;
      for (const method of METHODS) {
        const handler = routeModule[method];
        if (!handler?.[IMPLEMENTED]) continue;
        const where = `${method} ${templateOf(file)}`;
        const operation = handler[OPERATION];
        if (!operation) {
          mismatches.push(`${where} names no catalog entry`);
          continue;
        }
        if (operation.method !== method || operation.path !== templateOf(file))
          mismatches.push(`${where} serves ${operation.operationId} (${operation.method} ${operation.path})`);
        served.set(operation.operationId, [...(served.get(operation.operationId) ?? []), where]);
      }
    }
    expect(mismatches).toEqual([]);
    for (const operation of ACCOUNT_OPERATIONS)
      expect(served.get(operation.operationId), operation.operationId).toHaveLength(1);
  }, 60_000);

  it("every entry's role is the least role its permission is granted to", () => {
    const wrong = ACCOUNT_OPERATIONS.filter(
      (operation) => leastRole(operation.permission as Permission) !== operation.role,
    ).map(
      (operation) =>
        `${operation.operationId}: says ${operation.role}, granted first to ${leastRole(operation.permission as Permission)}`,
    );
    expect(wrong).toEqual([]);
  });

  it("every permission names a resource and actions of lib/auth/roles.ts", () => {
    const defined = statements as Record<string, readonly string[]>;
    for (const operation of ACCOUNT_OPERATIONS) {
      for (const [resource, actions] of Object.entries(operation.permission)) {
        expect(defined[resource], `${operation.operationId}: ${resource}`).toBeDefined();
        for (const action of actions)
          expect(defined[resource], `${operation.operationId}: ${resource}.${action}`).toContain(action);
      }
    }
  });

  it("every entry describes one kind of answer and one way to read its body", () => {
    for (const operation of ACCOUNT_OPERATIONS) {
      const id = operation.operationId;
      if (operation.status === 204) expect(operation.response ?? operation.download, id).toBeUndefined();
      else expect(Boolean(operation.response) !== Boolean(operation.download), id).toBe(true);
      if (operation.download) expect(operation.method, id).toBe("GET");
      if (operation.method === "GET")
        expect(operation.body ?? operation.bodyType ?? operation.bodyMaxBytes, id).toBeUndefined();
      if (operation.bodyReader) expect(operation.body, id).toBeDefined();
      if (operation.bodyType) expect(operation.body, id).toBeUndefined();
      if (operation.bodyTooLarge) expect(operation.bodyMaxBytes, id).toBeDefined();
      if (operation.queryHint) expect(operation.query, id).toBeDefined();
    }
  });
});

describe("an answer held against its entry (in tests, on every account answer)", () => {
  const me = {
    user: { id: "u1", email: "ada@example.com", name: "Ada", twoFactorEnabled: false },
    organization: { id: "o1", name: "Ada's team", slug: "ada", requireTwoFactor: false },
    role: "owner",
    organizations: [{ id: "o1", name: "Ada's team", slug: "ada", role: "owner" }],
  };

  it("passes the answer the schema describes, with or without headers of its own", () => {
    expect(() => assertAnswerMatches(OPERATIONS.getMe, me)).not.toThrow();
    expect(() => assertAnswerMatches(OPERATIONS.getMe, withHeaders(me, { "Cache-Control": "no-store" }))).not.toThrow();
    expect(() => assertAnswerMatches(OPERATIONS.deleteMonitor, undefined)).not.toThrow();
    const csv = new Response("a,b\r\n", { headers: { "Content-Type": "text/csv; charset=utf-8" } });
    expect(() => assertAnswerMatches(OPERATIONS.exportLinks, csv)).not.toThrow();
  });

  it.each([
    ["a field the schema does not have", OPERATIONS.getMe, { ...me, extra: 1 }, /getMe .*response schema/],
    ["a field missing", OPERATIONS.getMe, { ...me, role: undefined }, /role/],
    ["a value of another type", OPERATIONS.getMe, { ...me, user: { ...me.user, id: 7 } }, /user\.id/],
    ["a body on a 204", OPERATIONS.deleteMonitor, { id: "m1" }, /204/],
    ["a Response on a JSON operation", OPERATIONS.getMe, new Response("{}"), /Response of its own/],
    ["JSON on a download", OPERATIONS.exportLinks, [], /download answers a Response/],
    [
      "a download of another media type",
      OPERATIONS.exportLinks,
      new Response("<p>", { headers: { "Content-Type": "text/html" } }),
      /text\/html/,
    ],
    [
      "a download of another status",
      OPERATIONS.exportLinks,
      new Response("", { status: 202, headers: { "Content-Type": "text/csv" } }),
      /202/,
    ],
  ])("refuses %s", (_name, operation, answer, message) => {
    expect(() => assertAnswerMatches(operation as AccountOperation, answer)).toThrow(message);
  });
});
