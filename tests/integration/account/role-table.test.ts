import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPLEMENTED } from "@/lib/auth/account-route";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { ROLES, type Handler } from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(closeAll);

/**
 * What each role may do, operation by operation, through the real guard (docs/spec/account-api.md "Who and what":
 * viewer < member < admin < owner, each including the one below). Written down as a table so that renaming
 * or regrouping permissions cannot change a role's rights: every account route must be in it, and each
 * role below the least one gets the guard's 403 while the others get past the role check.
 */
const LEAST_ROLE: Record<string, (typeof ROLES)[number]> = {
  "GET /api/account/me": "viewer",
  "PUT /api/account/active-organization": "viewer",
  "GET /api/account/members": "viewer",
  "PATCH /api/account/members/{id}": "admin",
  "DELETE /api/account/members/{id}": "admin",
  "GET /api/account/invitations": "viewer",
  "POST /api/account/invitations": "admin",
  "DELETE /api/account/invitations/{id}": "admin",
  "POST /api/account/organization/leave": "viewer",
  "POST /api/account/organization/transfer": "owner",
  "PATCH /api/account/organization": "owner",
  "GET /api/account/audit-log": "admin",
  "GET /api/account/activity-log": "admin",
  "GET /api/account/outbox": "owner",
  "GET /api/account/openapi.json": "viewer",

  "GET /api/account/domain-groups": "viewer",
  "POST /api/account/domain-groups": "member",
  "GET /api/account/domain-groups/{id}": "viewer",
  "PATCH /api/account/domain-groups/{id}": "member",
  "DELETE /api/account/domain-groups/{id}": "member",

  "GET /api/account/audits": "viewer",
  "POST /api/account/audits": "member",
  "GET /api/account/audits/{id}": "viewer",
  "DELETE /api/account/audits/{id}": "member",
  "POST /api/account/audits/{id}/rerun": "member",
  "GET /api/account/audits/{id}/compare": "viewer",
  "GET /api/account/audits/{id}/export": "member",
  "POST /api/account/audits/{id}/track": "member",

  "GET /api/account/monitors": "viewer",
  "POST /api/account/monitors": "member",
  "GET /api/account/monitors/{id}": "viewer",
  "PATCH /api/account/monitors/{id}": "member",
  "DELETE /api/account/monitors/{id}": "member",
  "POST /api/account/monitors/{id}/check": "member",
  "GET /api/account/monitors/{id}/checks": "viewer",
  "POST /api/account/monitors/{id}/links": "member",
  "POST /api/account/monitors/{id}/evidence": "member",

  "GET /api/account/links": "viewer",
  "GET /api/account/links/{id}": "viewer",
  "PATCH /api/account/links/{id}": "member",
  "DELETE /api/account/links/{id}": "member",
  "GET /api/account/links/{id}/history": "viewer",
  "GET /api/account/links/{id}/evidence": "viewer",
  "GET /api/account/links/{id}/uptime": "viewer",
  "GET /api/account/links/uptime": "viewer",
  "POST /api/account/links/import": "member",
  "GET /api/account/links/export": "member",

  "GET /api/account/evidence/{id}": "viewer",
  "GET /api/account/evidence/{id}/screenshot.png": "viewer",
  "GET /api/account/evidence/{id}/google.png": "viewer",
  "GET /api/account/evidence/{id}/page.html": "viewer",
  "GET /api/account/evidence/{id}/report.pdf": "viewer",
  "GET /api/account/stats/daily": "viewer",

  "GET /api/account/shares": "viewer",
  "POST /api/account/shares": "admin",
  "DELETE /api/account/shares/{id}": "admin",
  "PUT /api/account/shares/{id}/schedule": "admin",
  "DELETE /api/account/shares/{id}/schedule": "admin",
  "POST /api/account/shares/{id}/send-test": "admin",

  "GET /api/account/branding": "viewer",
  "PATCH /api/account/branding": "admin",
  "GET /api/account/branding/logo": "viewer",
  "PUT /api/account/branding/logo": "admin",
  "DELETE /api/account/branding/logo": "admin",

  "GET /api/account/alerts": "viewer",
  "GET /api/account/notifications": "viewer",
  "PUT /api/account/notifications": "viewer",

  "GET /api/account/webhooks": "viewer",
  "POST /api/account/webhooks": "admin",
  "GET /api/account/webhooks/{id}": "viewer",
  "PATCH /api/account/webhooks/{id}": "admin",
  "DELETE /api/account/webhooks/{id}": "admin",
  "POST /api/account/webhooks/{id}/rotate-secret": "admin",
  "POST /api/account/webhooks/{id}/test": "admin",
  "GET /api/account/webhooks/{id}/deliveries": "viewer",
  "POST /api/account/webhooks/{id}/deliveries/{deliveryId}/retry": "admin",
};

const ROOT = path.resolve(__dirname, "../../..");
const ACCOUNT_DIR = path.join(ROOT, "app/api/account");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** An id no organization has: every allowed call with it stops at the 404 (or at a body's 400), changing nothing. */
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

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

interface Operation {
  key: string;
  method: (typeof METHODS)[number];
  path: string;
  params: Record<string, string>;
  handler: Handler;
}

async function accountOperations(): Promise<Operation[]> {
  const found: Operation[] = [];
  for (const file of routeFiles(ACCOUNT_DIR)) {
    const routeModule = (await import(file)) as Record<string, Handler & { [IMPLEMENTED]?: boolean }>;
    const template = templateOf(file);
    const params = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, UNKNOWN_ID]));
    for (const method of METHODS) {
      const handler = routeModule[method];
      if (!handler?.[IMPLEMENTED]) continue;
      found.push({
        key: `${method} ${template}`,
        method,
        path: template.replace(/\{\w+\}/g, UNKNOWN_ID),
        params,
        handler,
      });
    }
  }
  // Leaving is the one allowed call that changes something (the caller is gone): it comes last.
  const leaving = (operation: Operation) => operation.key === "POST /api/account/organization/leave";
  return found.sort((a, b) => Number(leaving(a)) - Number(leaving(b)) || a.key.localeCompare(b.key));
}

const operations = await accountOperations();

describe("the role table", () => {
  it("lists every account operation, and nothing that is not one", () => {
    expect(operations.map((operation) => operation.key).sort()).toEqual(Object.keys(LEAST_ROLE).sort());
  });
});

describe.each(BACKENDS)("every operation × role through the guard (%s)", (backend) => {
  let team: Team;

  beforeAll(async () => {
    team = await makeTeam(await useFreshDatabase(backend), "roles");
  });

  it.each(operations)("$key", async (operation) => {
    const least = LEAST_ROLE[operation.key];
    if (!least) throw new Error(`${operation.key} is not in the role table`);
    for (const role of ROLES) {
      const result = await call(operation.handler, operation.method, operation.path, {
        cookie: team[role].cookie,
        params: operation.params,
      });
      const refused = result.status === 403 && result.json?.error === `Your role (${role}) does not allow this.`;
      const allowed = ROLES.indexOf(role) >= ROLES.indexOf(least);
      expect(refused, `${operation.key} as ${role}: ${result.status} ${result.text.slice(0, 300)}`).toBe(!allowed);
      if (!allowed) expect(result.json?.errorCode).toBe("FORBIDDEN");
    }
  });
});
