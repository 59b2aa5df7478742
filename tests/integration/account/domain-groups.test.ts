import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listGroups, POST as createGroup } from "@/app/api/account/domain-groups/route";
import {
  GET as getGroup,
  PATCH as patchGroup,
  DELETE as deleteGroup,
} from "@/app/api/account/domain-groups/[id]/route";
import { GET as getAudit } from "@/app/api/account/audits/[id]/route";
import { POST as rerun } from "@/app/api/account/audits/[id]/rerun/route";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { analyzeHtml, shutdownAnalyzer } from "@/lib/analyzer";
import { loadDomainGroups } from "@/lib/account/group-lookup";
import { AuditSchema } from "@/lib/schemas/audits";
import { DomainGroupSchema, type DomainGroup } from "@/lib/schemas/domain-groups";
import { getConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  itEnforcesRoles,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import { groupNames, newAudit, newGroup, PAGE } from "./audit-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
});

/** Groups made in beforeAll for routes that consume one per call (DELETE), and one to read and patch. */
const deletable: string[] = [];
let stable = "";

const ROUTES: RouteCase[] = [
  {
    name: "GET /domain-groups",
    handler: listGroups,
    method: "GET",
    path: "/api/account/domain-groups",
    minRole: "viewer",
  },
  {
    name: "POST /domain-groups",
    handler: createGroup,
    method: "POST",
    path: "/api/account/domain-groups",
    minRole: "member",
    body: () => ({ name: `G ${Math.random()}`, domains: [`s${Math.random().toString(36).slice(2)}.example`] }),
  },
  {
    name: "GET /domain-groups/{id}",
    handler: getGroup,
    method: "GET",
    path: "/api/account/domain-groups/x",
    minRole: "viewer",
    params: () => ({ id: stable }),
  },
  {
    name: "PATCH /domain-groups/{id}",
    handler: patchGroup,
    method: "PATCH",
    path: "/api/account/domain-groups/x",
    minRole: "member",
    body: () => ({ name: `Renamed ${Math.random()}` }),
    params: () => ({ id: stable }),
  },
  {
    name: "DELETE /domain-groups/{id}",
    handler: deleteGroup,
    method: "DELETE",
    path: "/api/account/domain-groups/x",
    minRole: "member",
    params: () => ({ id: deletable.pop() ?? "none-left" }),
  },
];

describe.each(BACKENDS)("domain groups (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "g");
    other = await makeTeam(database, "h");
    deletable.length = 0;
    for (let i = 0; i < 10; i += 1)
      deletable.push((await newGroup(team.owner.cookie, `Deletable ${i}`, [`del${i}.example`])).id);
    stable = (await newGroup(team.owner.cookie, "Stable", ["stable.example"])).id;
    // Two teams' sign-ups (scrypt): slow when other suites share the two cores.
  }, 420_000);

  describe("check order and roles", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
  });

  describe("saving groups", () => {
    it("creates a group with exactly the DomainGroup fields, hostnames normalized and duplicates collapsed", async () => {
      const result = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: {
          name: "  Network ",
          domains: ["Mine.Example", "shop.sister.example", "mine.example.", "BÜCHER.example", "shop.sister.example"],
        },
      });
      expect(result.status, result.text).toBe(201);
      const group = DomainGroupSchema.parse(result.json);
      expect(Object.keys(result.json ?? {}).sort()).toEqual(["createdAt", "domains", "id", "name", "updatedAt"]);
      expect(group).toMatchObject({
        name: "Network",
        domains: ["mine.example", "shop.sister.example", "xn--bcher-kva.example"],
      });
      const read = await call(getGroup, "GET", "/x", { cookie: team.viewer.cookie, params: { id: group.id } });
      expect(read.json).toEqual(group);
      expect(await loadDomainGroups(database.db, team.organizationId)).toMatchObject({
        "mine.example": "Network",
        "sister.example": "Network",
        "xn--bcher-kva.example": "Network",
      });
    });

    it("refuses a name another group has, whatever its case (409)", async () => {
      const result = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: { name: "NETWORK", domains: ["unrelated-1.example"] },
      });
      expectError(result, 409, "CONFLICT");
      expect(result.json?.error).toMatch(/"NETWORK" already exists/);
    });

    it("refuses a site that is already in another group, naming that group (409), also through a subdomain", async () => {
      const direct = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: { name: "Partners", domains: ["partner.example", "mine.example"] },
      });
      expectError(direct, 409, "CONFLICT");
      expect(direct.json?.error).toBe('mine.example is already in the domain group "Network".');
      const viaSubdomain = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: { name: "Partners", domains: ["partner.example", "www.sister.example"] },
      });
      expectError(viaSubdomain, 409, "CONFLICT");
      expect(viaSubdomain.json?.error).toBe(
        'www.sister.example (site sister.example) is already in the domain group "Network".',
      );
      // Nothing of the refused group was saved.
      expect(await groupNames(team.owner.cookie)).not.toContain("Partners");
      expect((await loadDomainGroups(database.db, team.organizationId))["partner.example"]).toBeUndefined();
    });

    it("another organization may group the same sites under the same name", async () => {
      await newGroup(other.owner.cookie, "Network", ["mine.example", "sister.example"]);
      expect(await loadDomainGroups(database.db, other.organizationId)).toEqual({
        "mine.example": "Network",
        "sister.example": "Network",
      });
    });

    it("PATCH renames and replaces domains in one transaction; a group may keep its own sites; moving a site frees it", async () => {
      const partners = await newGroup(team.member.cookie, "Partners", ["partner.example", "affiliate.example"]);
      const renamed = await call(patchGroup, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: partners.id },
        body: { name: "Affiliates", domains: ["affiliate.example", "www.partner.example"] },
      });
      expect(renamed.status, renamed.text).toBe(200);
      const group = DomainGroupSchema.parse(renamed.json);
      expect(group).toMatchObject({
        id: partners.id,
        name: "Affiliates",
        domains: ["affiliate.example", "www.partner.example"],
        createdAt: partners.createdAt,
      });
      expect(Date.parse(group.updatedAt)).toBeGreaterThanOrEqual(Date.parse(partners.updatedAt));
      // Drop partner.example from this group, then another group may take it.
      await call(patchGroup, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: partners.id },
        body: { domains: ["affiliate.example"] },
      });
      const taker = await newGroup(team.member.cookie, "Takers", ["partner.example"]);
      const lookup = await loadDomainGroups(database.db, team.organizationId);
      expect(lookup).toMatchObject({ "affiliate.example": "Affiliates", "partner.example": "Takers" });
      // Renaming onto an existing name is 409; onto its own name in another case is fine.
      expectError(
        await call(patchGroup, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: taker.id },
          body: { name: "affiliates" },
        }),
        409,
        "CONFLICT",
      );
      const recased = await call(patchGroup, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: taker.id },
        body: { name: "TAKERS" },
      });
      expect(recased.status, recased.text).toBe(200);
      // Taking a site of another group by PATCH is 409 and changes nothing.
      const stolen = await call(patchGroup, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: taker.id },
        body: { domains: ["partner.example", "affiliate.example"] },
      });
      expectError(stolen, 409, "CONFLICT");
      expect(stolen.json?.error).toMatch(/"Affiliates"/);
      expect(
        (
          (await call(getGroup, "GET", "/x", { cookie: team.member.cookie, params: { id: taker.id } }))
            .json as DomainGroup
        ).domains,
      ).toEqual(["partner.example"]);
    });

    it("DELETE removes the group and frees its sites (204, then 404)", async () => {
      const temp = await newGroup(team.member.cookie, "Temporary", ["temporary.example"]);
      const deleted = await call(deleteGroup, "DELETE", "/x", { cookie: team.member.cookie, params: { id: temp.id } });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      expectError(
        await call(getGroup, "GET", "/x", { cookie: team.member.cookie, params: { id: temp.id } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(deleteGroup, "DELETE", "/x", { cookie: team.member.cookie, params: { id: temp.id } }),
        404,
        "NOT_FOUND",
      );
      expect((await loadDomainGroups(database.db, team.organizationId))["temporary.example"]).toBeUndefined();
      await newGroup(team.member.cookie, "Temporary again", ["temporary.example"]);
    });

    it("two saves of the same site at the same moment: one wins, the other is 409 naming the winner", async () => {
      const results = await Promise.all(
        ["Race A", "Race B", "Race C"].map((name) =>
          call(createGroup, "POST", "/x", {
            cookie: team.member.cookie,
            body: { name, domains: [`race-${name.slice(-1).toLowerCase()}.example`, "raced.example"] },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const winner = (results.find((r) => r.status === 201)?.json as DomainGroup).name;
      for (const loser of results.filter((r) => r.status === 409))
        expect(loser.json?.error).toBe(`raced.example is already in the domain group "${winner}".`);
    });

    it.each([
      [{ name: "", domains: ["a.example"] }, /^name: /],
      [{ name: "x".repeat(101), domains: ["a.example"] }, /^name: /],
      [{ name: "Bad\u0000name", domains: ["a.example"] }, /^name: /],
      [{ name: "N" }, /^domains: /],
      [{ name: "N", domains: [] }, /^domains: /],
      [{ name: "N", domains: "a.example" }, /^domains: /],
      [{ name: "N", domains: ["ok.example", 7] }, /^domains\.1: /],
      [
        { name: "N", domains: ["ok.example", "https://x.example/page"] },
        /^domains\.1: "https:\/\/x\.example\/page" is not a hostname/,
      ],
      [{ name: "N", domains: Array.from({ length: 501 }, (_, i) => `d${i}.example`) }, /^domains: at most 500/],
      [{ name: "N", domains: ["a.example"], color: "red" }, /color/],
    ])("POST %j → 400 naming the field", async (body, message) => {
      const result = await call(createGroup, "POST", "/x", { cookie: team.member.cookie, body });
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(message);
    });

    it("accepts 500 hostnames; a body beyond 256 KiB is 413", async () => {
      const many = Array.from({ length: 500 }, (_, i) => `site-${i}-${"x".repeat(40)}.bulk.example`);
      const created = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: { name: "Bulk", domains: many.map((d, i) => `h${i}.${d.replace(".bulk.example", "")}.example`) },
      });
      expect(created.status, created.text).toBe(201);
      expect((created.json as DomainGroup).domains).toHaveLength(500);
      const huge = await call(createGroup, "POST", "/x", {
        cookie: team.member.cookie,
        body: { name: "Huge", domains: Array.from({ length: 500 }, () => "y".repeat(600)) },
      });
      expectError(huge, 413, "PAYLOAD_TOO_LARGE");
    });

    it("PATCH with an empty body or a bad field is 400; an unknown id is 404 before the body is read", async () => {
      expectError(
        await call(patchGroup, "PATCH", "/x", { cookie: team.member.cookie, params: { id: stable }, body: {} }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(patchGroup, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: stable },
          body: { domains: ["bad host"] },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(patchGroup, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: "no-such-group" },
          body: { nonsense: true },
        }),
        404,
        "NOT_FOUND",
      );
    });

    it("lists oldest first with keyset pages", async () => {
      const all = await call(listGroups, "GET", "/x?limit=100", { cookie: team.viewer.cookie });
      const ids = (all.json as { items: DomainGroup[] }).items.map((g) => g.id);
      expect(ids.length).toBeGreaterThan(3);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await call(listGroups, "GET", `/x?limit=2${cursor ? `&cursor=${cursor}` : ""}`, {
          cookie: team.viewer.cookie,
        });
        const body = page.json as { items: DomainGroup[]; nextCursor: string | null };
        walked.push(...body.items.map((g) => g.id));
        cursor = body.nextCursor;
      } while (cursor && walked.length <= ids.length);
      expect(walked).toEqual(ids);
      const times = (all.json as { items: DomainGroup[] }).items.map((g) => Date.parse(g.createdAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expectError(
        await call(listGroups, "GET", "/x?sort=name", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
    });

    it("writes create, update and delete to the audit log with the domains", async () => {
      const log = await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie });
      const items = (
        log.json as {
          items: Array<{ action: string; target: { type: string } | null; details: Record<string, unknown> }>;
        }
      ).items;
      const created = items.find((i) => i.action === "domain_group.create" && i.details.name === "Network");
      expect(created?.details.domains).toEqual(["mine.example", "shop.sister.example", "xn--bcher-kva.example"]);
      const updated = items.find(
        (i) => i.action === "domain_group.update" && (i.details.before as { name: string }).name === "Partners",
      );
      expect(updated?.details).toEqual({
        before: { name: "Partners", domains: ["partner.example", "affiliate.example"] },
        after: { name: "Affiliates", domains: ["affiliate.example", "www.partner.example"] },
      });
      expect(items.some((i) => i.action === "domain_group.delete" && i.details.name === "Temporary")).toBe(true);
      expect(items.every((i) => !i.action.startsWith("domain_group") || i.target?.type === "domain_group")).toBe(true);
    });
  });

  describe("classification in audits", () => {
    it("the same page is classified with and without the group: sister links internal with the group's name, stats count them", async () => {
      const pageUrl = "https://blog.mine.example/";
      const plain = await analyzeHtml({ html: PAGE, pageUrl }, { settings: getConfig() });
      const withoutGroup = await newAudit(other.member.cookie, { html: PAGE, domain: "unrelated-page.example" });
      expect(withoutGroup.links.every((l) => l.matchedGroupName === null)).toBe(true);

      const grouped = await newAudit(team.member.cookie, { html: PAGE, domain: "blog.mine.example" });
      const kinds = grouped.links.map((l) => [l.href, l.linkType, l.matchedGroupName]);
      expect(kinds).toEqual([
        ["https://blog.mine.example/about", "internal", null],
        ["https://shop.sister.example/p", "internal", "Network"],
        ["https://outsider.example/", "external", null],
        ["https://www.mine.example/contact", "internal", null],
        ["mailto:hi@mine.example", "ignored", null],
      ]);
      expect(plain.links.map((l) => [l.href, l.linkType])).toEqual([
        ["https://blog.mine.example/about", "internal"],
        ["https://shop.sister.example/p", "external"],
        ["https://outsider.example/", "external"],
        ["https://www.mine.example/contact", "internal"],
        ["mailto:hi@mine.example", "ignored"],
      ]);
      expect(grouped.stats).toEqual({
        ...plain.stats,
        internal: plain.stats.internal + 1,
        external: plain.stats.external - 1,
      });
      // Everything but the group fields (and the signed-in signals) is the public analyzer's answer.
      expect(grouped.links.map(({ linkType: _t, matchedGroupName: _g, signals: _s, ...rest }) => rest)).toEqual(
        plain.links.map(({ linkType: _t, matchedGroupName: _g, ...rest }) => rest),
      );
    });

    it("a page on no grouped site keeps the public rules, even in an organization with groups", async () => {
      const audit = await newAudit(team.member.cookie, { html: PAGE, domain: "elsewhere.example" });
      const plain = await analyzeHtml({ html: PAGE, pageUrl: "https://elsewhere.example/" }, { settings: getConfig() });
      expect(audit.links.map(({ signals: _s, ...link }) => link)).toEqual(plain.links);
      expect(audit.stats).toEqual(plain.stats);
    });

    it("a group edited between two audits changes the second only; a re-run uses today's groups", async () => {
      const first = await newAudit(team.member.cookie, { html: PAGE, domain: "mine.example" });
      expect(first.links[2]).toMatchObject({
        href: "https://outsider.example/",
        linkType: "external",
        matchedGroupName: null,
      });
      const network = (await call(listGroups, "GET", "/x?limit=100", { cookie: team.member.cookie })).json as {
        items: DomainGroup[];
      };
      const id = network.items.find((g) => g.name === "Network")?.id ?? "";
      const edited = await call(patchGroup, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id },
        body: { name: "Network 2", domains: ["mine.example", "sister.example", "outsider.example"] },
      });
      expect(edited.status, edited.text).toBe(200);

      const second = await newAudit(team.member.cookie, { html: PAGE, domain: "mine.example" });
      expect(second.links.map((l) => l.matchedGroupName)).toEqual([null, "Network 2", "Network 2", null, null]);
      expect(second.stats.external).toBe(0);

      // The first audit, read again, is exactly as it was saved.
      const reread = await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: first.id } });
      expect(AuditSchema.parse(reread.json)).toEqual(first);
      expect(first.links[1]?.matchedGroupName).toBe("Network");

      // A re-run of the first audit is a new audit under today's groups.
      const again = await call(rerun, "POST", "/x", { cookie: team.member.cookie, params: { id: first.id } });
      expect(again.status, again.text).toBe(201);
      const rerunAudit = AuditSchema.parse(again.json);
      expect(rerunAudit.id).not.toBe(first.id);
      expect(rerunAudit.links).toEqual(second.links);
    });
  });

  describe("tenant isolation", () => {
    it("another organization's group ids are 404 on every route, and its groups never show", async () => {
      const theirs = await newGroup(other.owner.cookie, "Theirs", ["theirs.example"]);
      const asOwner = { cookie: team.owner.cookie, params: { id: theirs.id } };
      expectError(await call(getGroup, "GET", "/x", asOwner), 404, "NOT_FOUND");
      expectError(await call(patchGroup, "PATCH", "/x", { ...asOwner, body: { name: "Mine now" } }), 404, "NOT_FOUND");
      expectError(await call(deleteGroup, "DELETE", "/x", asOwner), 404, "NOT_FOUND");
      expect(await groupNames(team.owner.cookie)).not.toContain("Theirs");
      expect(
        (await call(getGroup, "GET", "/x", { cookie: other.viewer.cookie, params: { id: theirs.id } })).json,
      ).toMatchObject({ name: "Theirs" });
      // Their group does not classify our audits.
      const audit = await newAudit(team.member.cookie, {
        html: '<a href="https://www.theirs.example/">t</a>',
        domain: "theirs.example",
      });
      expect(audit.links[0]).toMatchObject({ linkType: "internal", matchedGroupName: null });
      const cross = await newAudit(team.member.cookie, {
        html: '<a href="https://theirs.example/">t</a>',
        domain: "sister.example",
      });
      expect(cross.links[0]).toMatchObject({ linkType: "external", matchedGroupName: null });
    });
  });
});
