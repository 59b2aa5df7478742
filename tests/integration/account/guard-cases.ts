import { expect, it } from "vitest";
import { ACCOUNT_REQUEST_HINT } from "@/lib/auth/account-route";
import { ERRORS } from "@/lib/errors";
import { call, type CallOptions } from "./harness";
import type { Team } from "./team-setup";
import { ERROR_KEYS } from "../../helpers/server";

/**
 * The guard's check order and role boundaries as reusable test cases: each feature's suite lists its
 * routes (with a request valid for the lowest allowed role) and calls `itChecksGuardOrder` and
 * `itEnforcesRoles` inside its describe block, so no account route can be added without both.
 */

export type Handler = Parameters<typeof call>[0];

export interface RouteCase {
  name: string;
  handler: Handler;
  method: string;
  path: string;
  /** Lowest role allowed. */
  minRole: "viewer" | "member" | "admin" | "owner";
  body?: (team: Team) => unknown;
  params?: (team: Team) => Record<string, string>;
}

export const ROLES = ["viewer", "member", "admin", "owner"] as const;

export function expectError(result: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(result.status, result.text).toBe(status);
  expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
  expect(result.json?.errorCode, result.text).toBe(code);
}

function send(route: RouteCase, team: Team, options: CallOptions) {
  return call(route.handler, route.method, route.path, {
    body: route.body?.(team),
    params: route.params?.(team),
    ...options,
  });
}

/** Checks 1–3 of the order: Authorization header → 401, no session → 401, foreign origin on mutations → 403 INVALID_ORIGIN. */
export function itChecksGuardOrder(routes: RouteCase[], team: () => Team): void {
  it.each(routes)(
    "$name: an Authorization header is 401 even with a valid session and a foreign origin",
    async (route) => {
      const result = await send(route, team(), {
        cookie: team().owner.cookie,
        headers: { authorization: "Bearer abc" },
        origin: "https://evil.example",
      });
      expectError(result, 401, "UNAUTHORIZED");
      expect(String(result.json?.hint)).toMatch(/no API keys/);
    },
  );

  it.each(routes)("$name: no session is 401, before the origin check", async (route) => {
    expectError(await send(route, team(), { origin: "https://evil.example" }), 401, "UNAUTHORIZED");
    expectError(await send(route, team(), { cookie: "better-auth.session_token=forged.value" }), 401, "UNAUTHORIZED");
  });

  const mutations = routes.filter((r) => r.method !== "GET");
  if (mutations.length === 0) return;
  it.each(mutations)(
    "$name: a foreign Origin or a cross-site fetch is 403 INVALID_ORIGIN, before the role check",
    async (route) => {
      expectError(
        await send(route, team(), { cookie: team().viewer.cookie, origin: "https://evil.example" }),
        403,
        "INVALID_ORIGIN",
      );
      expectError(
        await send(route, team(), {
          cookie: team().viewer.cookie,
          origin: null,
          headers: { "sec-fetch-site": "cross-site" },
        }),
        403,
        "INVALID_ORIGIN",
      );
    },
  );
}

/** Check 4: every role below `minRole` gets 403 FORBIDDEN, every role from it on gets a 2xx. */
export function itEnforcesRoles(routes: RouteCase[], team: () => Team): void {
  const cases = routes.flatMap((route) =>
    ROLES.map((role) => ({ route, role, allowed: ROLES.indexOf(role) >= ROLES.indexOf(route.minRole) })),
  );
  it.each(cases)("$route.name as $role → allowed: $allowed", async ({ route, role, allowed }) => {
    const result = await send(route, team(), { cookie: team()[role].cookie });
    if (allowed) expect(result.status, result.text).toBeLessThan(300);
    else expectError(result, 403, "FORBIDDEN");
  });
}

/**
 * A 400 of an account route carries an account hint, not the public analyzer's (which describes the
 * `{url}` / `{html, domain}` body). POST /api/account/audits takes exactly that body and keeps it.
 */
export function itHintsAccountRequests(routes: RouteCase[], team: () => Team): void {
  const withBodies = routes.filter((r) => r.method !== "GET" && r.body);
  it.each(withBodies)("$name: a body of the wrong shape is 400 with the hint of this kind of route", async (route) => {
    const result = await call(route.handler, route.method, route.path, {
      body: [],
      params: route.params?.(team()),
      cookie: team().owner.cookie,
    });
    expectError(result, 400, "INVALID_REQUEST");
    const analyzerBody = route.method === "POST" && route.path === "/api/account/audits";
    expect(result.json?.hint).toBe(analyzerBody ? ERRORS.INVALID_REQUEST.hint : ACCOUNT_REQUEST_HINT);
  });
}

/**
 * Check 5 before check 6: an id that is not in the active organization is 404 even when the body or the
 * query is invalid too (the id is looked up before either is read).
 */
export function itFindsIdsBeforeBodies(routes: RouteCase[], team: () => Team): void {
  const cases = routes.filter((r) => r.params && (r.method === "GET" || r.body));
  it.each(cases)("$name: an unknown id with an invalid body or query is 404, not 400", async (route) => {
    const unknown = Object.fromEntries(
      Object.keys(route.params?.(team()) ?? {}).map((name) => [name, "00000000-0000-4000-8000-000000000000"]),
    );
    const path = route.method === "GET" ? `${route.path}${route.path.includes("?") ? "&" : "?"}limit=0` : route.path;
    const body = route.method === "GET" ? undefined : [];
    expectError(
      await call(route.handler, route.method, path, { body, params: unknown, cookie: team().owner.cookie }),
      404,
      "NOT_FOUND",
    );
  });
}
