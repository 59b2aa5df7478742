import { expect } from "vitest";
import { GET as listAuditsRoute, POST as createAuditRoute } from "@/app/api/account/audits/route";
import { GET as listGroupsRoute, POST as createGroupRoute } from "@/app/api/account/domain-groups/route";
import { AuditSchema, type Audit } from "@/lib/schemas/audits";
import { DomainGroupSchema, type DomainGroup } from "@/lib/schemas/domain-groups";
import { call } from "./harness";

/**
 * Shared steps of the audits, domain-groups, quota and corpus suites: create through the real routes
 * and check the answer's exact shape on the way (strict schemas: no field more, none missing).
 */

export const PAGE = `<!doctype html><html><head><title>Partner page</title></head><body>
<a href="/about">About</a>
<a href="https://shop.sister.example/p" rel="sponsored">Sister shop</a>
<a href="https://outsider.example/">Outsider</a>
<a href="https://www.mine.example/contact">Contact</a>
<a href="mailto:hi@mine.example">Mail</a>
</body></html>`;

export async function newAudit(cookie: string, body: unknown): Promise<Audit> {
  const result = await call(createAuditRoute, "POST", "/api/account/audits", { cookie, body });
  expect(result.status, result.text).toBe(201);
  return AuditSchema.parse(result.json);
}

export async function newGroup(cookie: string, name: string, domains: string[]): Promise<DomainGroup> {
  const result = await call(createGroupRoute, "POST", "/api/account/domain-groups", {
    cookie,
    body: { name, domains },
  });
  expect(result.status, result.text).toBe(201);
  return DomainGroupSchema.parse(result.json);
}

export async function auditIds(cookie: string, query = ""): Promise<string[]> {
  const result = await call(listAuditsRoute, "GET", `/api/account/audits?limit=100${query}`, { cookie });
  expect(result.status, result.text).toBe(200);
  return (result.json as { items: Array<{ id: string }> }).items.map((item) => item.id);
}

export async function groupNames(cookie: string): Promise<string[]> {
  const result = await call(listGroupsRoute, "GET", "/api/account/domain-groups?limit=100", { cookie });
  expect(result.status, result.text).toBe(200);
  return (result.json as { items: DomainGroup[] }).items.map((group) => group.name);
}
