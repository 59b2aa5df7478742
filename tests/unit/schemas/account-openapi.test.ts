import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { IMPLEMENTED } from "@/lib/auth/account-route";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { ACCOUNT_OPERATIONS } from "@/lib/schemas/operations";
import { buildAccountOpenApiDocument } from "@/lib/schemas/openapi";
import { CRAWLER_AGENTS } from "@/lib/schemas/crawlers";

/**
 * The account OpenAPI document is generated from the operation catalog; these tests tie the catalog to
 * the routes that exist (app/api/account/**), both ways, so a new route cannot be left out of it.
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
  return `/${path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/")}`.replace(
    /\[(\w+)\]/g,
    "{$1}",
  );
}

async function implementedOperations(): Promise<string[]> {
  const found: string[] = [];
  for (const file of routeFiles(ACCOUNT_DIR)) {
    const routeModule = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = routeModule[method] as { [IMPLEMENTED]?: boolean } | undefined;
      if (handler?.[IMPLEMENTED]) found.push(`${method} ${templateOf(file)}`);
    }
  }
  return found.sort();
}

describe("the account API's OpenAPI document", () => {
  it("lists every account route, and nothing that is not one", async () => {
    const routes = await implementedOperations();
    expect(routes.length).toBeGreaterThan(40);
    const catalog = ACCOUNT_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).sort();
    expect(catalog).toEqual(routes);
    const document = buildAccountOpenApiDocument("https://linklens.example");
    const documented = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
      METHODS.filter((method) => (item as Record<string, unknown>)[method.toLowerCase()]).map(
        (method) => `${method} ${route}`,
      ),
    );
    expect(documented.sort()).toEqual(routes);
  }, 60_000);

  it("is a valid OpenAPI 3.1 document with unique operation ids", async () => {
    const document = buildAccountOpenApiDocument("https://linklens.example");
    const result = await new Validator().validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const ids = ACCOUNT_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("describes crawler access (google-view.md §3): the page signal's agents in their one order, and the alert type", () => {
    const document = buildAccountOpenApiDocument("https://linklens.example");
    const schemas = (document.components?.schemas ?? {}) as Record<
      string,
      { properties?: Record<string, { enum?: string[] }>; required?: string[]; additionalProperties?: unknown }
    >;
    const crawlers = schemas.Crawlers;
    expect(Object.keys(crawlers?.properties ?? {})).toEqual([...CRAWLER_AGENTS]);
    expect(crawlers?.required).toEqual([...CRAWLER_AGENTS]);
    expect(crawlers?.additionalProperties).toBe(false);
    for (const agent of CRAWLER_AGENTS)
      expect(crawlers?.properties?.[agent]?.enum).toEqual(["allowed", "disallowed", "unavailable"]);
    expect(JSON.stringify(schemas.PageSignals?.properties?.crawlers)).toContain("#/components/schemas/Crawlers");
    expect(JSON.stringify(document)).toContain('"crawler_access_changed"');
  });

  it("stays out of the public description", () => {
    const text = JSON.stringify(buildOpenApiDocument("https://linklens.example"));
    expect(text).not.toContain("/api/account");
  });
});
