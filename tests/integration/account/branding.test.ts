import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, like } from "drizzle-orm";
import { PNG } from "pngjs";
import { GET as getBranding, PATCH as patchBranding } from "@/app/api/account/branding/route";
import { DELETE as deleteLogo, GET as getLogo, PUT as putLogo } from "@/app/api/account/branding/logo/route";
import { resolveBranding } from "@/lib/branding";
import type { Database } from "@/lib/db";
import { activityLog, organizationBranding } from "@/lib/db/schema";
import { MAX_LOGO_BYTES } from "@/lib/schemas/branding";
import { BACKENDS, call, closeAll, ORIGIN, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itHintsAccountRequests,
  ROLES,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import { ERROR_KEYS } from "../../helpers/server";
import { gifOf, jpegOf, pngClaiming, pngOf, SVG_LOGO, webpOf } from "../../helpers/images";

/**
 * Branding (reports-and-channels.md "Branding") through its routes, on PGlite and PostgreSQL: every
 * route, role and error code; reads that never 404 without branding (logo: null); the logo kept as a
 * re-encoded PNG within 512 × 512 (read back with another decoder), every refused kind of upload (413
 * before the body is read past the cap, 415 for SVG, GIF, WebP and text, 400 for bytes that are not the
 * image they claim, truncated files and a pixel bomb), the activity log, and tenant isolation.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(async () => {
  await closeAll();
});

const BRANDING_KEYS = ["accentColor", "displayName", "footer", "logo"];
const NONE = { displayName: null, accentColor: null, footer: null, logo: null };

type LogoBody = Uint8Array | ReadableStream<Uint8Array> | null;

/** PUT /api/account/branding/logo as a browser uploading a file would send it. */
async function upload(cookie: string, body: LogoBody, contentType: string | null) {
  const headers = new Headers({ host: "localhost:3000", "x-linklens-client-key": "127.0.0.1", origin: ORIGIN, cookie });
  if (contentType) headers.set("content-type", contentType);
  const request = new Request(`${ORIGIN}/api/account/branding/logo`, {
    method: "PUT",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  const response = await putLogo(request, { params: Promise.resolve({}) });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

/** A body that streams zeros 64 KiB at a time for as long as it is read, counting what was read. */
function endlessBody() {
  const chunk = new Uint8Array(64 * 1024);
  const counter = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.bytes += chunk.byteLength;
      controller.enqueue(chunk);
      if (counter.bytes > 64 * 1024 * 1024) controller.close();
    },
  });
  return { stream, counter };
}

describe.each(BACKENDS)("branding (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `brand-${backend}`);
    other = await makeTeam(database, `brando-${backend}`);
  });

  const read = (cookie = team.viewer.cookie) => call(getBranding, "GET", "/api/account/branding", { cookie });
  const patch = (body: unknown, cookie = team.admin.cookie) =>
    call(patchBranding, "PATCH", "/api/account/branding", { cookie, body });
  const logo = async (cookie = team.viewer.cookie) => {
    const response = await getLogo(
      new Request(`${ORIGIN}/api/account/branding/logo`, {
        headers: { host: "localhost:3000", "x-linklens-client-key": "127.0.0.1", cookie },
      }),
      { params: Promise.resolve({}) },
    );
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
  const removeLogo = (cookie = team.admin.cookie) =>
    call(deleteLogo, "DELETE", "/api/account/branding/logo", { cookie });
  const activity = (action: string) =>
    database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.organizationId, team.organizationId), eq(activityLog.action, action)))
      .orderBy(asc(activityLog.createdAt));

  describe("without branding", () => {
    it("reads every field as null, never 404, for every role", async () => {
      for (const role of ROLES) {
        const result = await read(team[role].cookie);
        expect(result.status, result.text).toBe(200);
        expect(Object.keys(result.json ?? {}).sort()).toEqual(BRANDING_KEYS);
        expect(result.json).toEqual(NONE);
      }
    });

    it("has no logo to download (404), and resolves to the organization's name in LinkLens's look", async () => {
      const missing = await logo();
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body.toString()).errorCode).toBe("NOT_FOUND");
      expect(await resolveBranding(database.db, team.organizationId)).toEqual({
        name: `brand-${backend}-owner's team`,
        accentColor: null,
        footer: null,
        logoPng: null,
      });
    });
  });

  describe("the name, colour and footer", () => {
    it("an admin changes them; the answer and every later read show them; the change is in the activity log", async () => {
      const result = await patch({
        displayName: "  Northwind Agency ",
        accentColor: "#0F766E",
        footer: "Northwind Ltd · 1 Harbour Road\nhello@northwind.example",
      });
      expect(result.status, result.text).toBe(200);
      const expected = {
        displayName: "Northwind Agency",
        accentColor: "#0f766e",
        footer: "Northwind Ltd · 1 Harbour Road\nhello@northwind.example",
        logo: null,
      };
      expect(result.json).toEqual(expected);
      expect((await read()).json).toEqual(expected);
      const [row] = await activity("branding.updated");
      expect(row?.actorEmail).toBe(team.admin.email);
      expect(row?.targetType).toBe("organization");
      expect(row?.targetId).toBe(team.organizationId);
      expect(row?.details).toEqual({
        displayName: { before: null, after: "Northwind Agency" },
        accentColor: { before: null, after: "#0f766e" },
        footer: { before: null, after: expected.footer },
      });
      expect(await resolveBranding(database.db, team.organizationId)).toMatchObject({
        name: "Northwind Agency",
        accentColor: "#0f766e",
      });
    });

    it("changes only the fields named, clears one with null, and logs nothing when nothing changes", async () => {
      const logged = (await activity("branding.updated")).length;
      const same = await patch({ accentColor: "#0f766e", displayName: "Northwind Agency" });
      expect(same.status, same.text).toBe(200);
      expect(await activity("branding.updated")).toHaveLength(logged);

      const cleared = await patch({ footer: null }, team.owner.cookie);
      expect(cleared.json).toMatchObject({ displayName: "Northwind Agency", accentColor: "#0f766e", footer: null });
      const rows = await activity("branding.updated");
      expect(rows).toHaveLength(logged + 1);
      expect(Object.keys(rows.at(-1)?.details ?? {})).toEqual(["footer"]);
    });

    const BAD: Array<[string, unknown, RegExp]> = [
      ["an empty display name", { displayName: "   " }, /^displayName: /],
      ["a display name of 101 characters", { displayName: "n".repeat(101) }, /^displayName: /],
      ["a control character in the name", { displayName: "Acme\u0007" }, /^displayName: must not contain control/],
      ["a colour name", { accentColor: "teal" }, /^accentColor: must be a colour written "#rrggbb"/],
      ["a short colour", { accentColor: "#0f7" }, /^accentColor: /],
      ["a colour with alpha", { accentColor: "#0f766eff" }, /^accentColor: /],
      ["a footer of 301 characters", { footer: "f".repeat(301) }, /^footer: /],
      ["a control character in the footer", { footer: "line\u001b[31m" }, /^footer: must be plain text/],
      ["a number for a name", { displayName: 42 }, /^displayName: /],
      ["an unknown field", { logo: "x" }, /^body: Unrecognized key/],
      ["no field at all", {}, /^body: name at least one of displayName, accentColor, footer/],
      ["a NUL in the footer", { footer: "a\u0000b" }, /^footer: /],
    ];
    it.each(BAD)("%s is 400 INVALID_REQUEST naming the field, and changes nothing", async (_name, body, message) => {
      const before = (await read()).json;
      const result = await patch(body);
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(message);
      expect((await read()).json).toEqual(before);
    });

    it("a body that is not JSON is 400", async () => {
      const result = await call(patchBranding, "PATCH", "/api/account/branding", {
        cookie: team.admin.cookie,
        headers: { "content-type": "text/plain" },
      });
      expectError(result, 400, "INVALID_REQUEST");
    });
  });

  describe("the logo", () => {
    it("a PNG is kept re-encoded within 512 × 512, served as image/png with nosniff, and logged", async () => {
      const sent = await pngOf(1200, 300, { r: 15, g: 118, b: 110 });
      const result = await upload(team.admin.cookie, sent, "image/png");
      expect(result.status, result.text).toBe(200);
      const answer = result.json as { logo: { width: number; height: number; bytes: number } };
      expect(answer.logo).toMatchObject({ width: 512, height: 128 });
      expect(answer).toMatchObject({ displayName: "Northwind Agency", accentColor: "#0f766e" });

      const file = await logo();
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.body.length).toBe(answer.logo.bytes);
      expect(file.body.equals(sent)).toBe(false);
      const decoded = PNG.sync.read(file.body);
      expect([decoded.width, decoded.height]).toEqual([512, 128]);
      const middle = (64 * 512 + 256) * 4;
      expect([...decoded.data.subarray(middle, middle + 4)]).toEqual([15, 118, 110, 255]);

      expect((await read()).json).toMatchObject({ logo: answer.logo });
      const [row] = await activity("branding.logo_set");
      expect(row?.actorEmail).toBe(team.admin.email);
      expect(row?.details).toEqual({
        uploaded: { type: "image/png", bytes: sent.length },
        stored: { width: 512, height: 128, bytes: answer.logo.bytes },
      });
      const resolved = await resolveBranding(database.db, team.organizationId);
      expect(Buffer.from(resolved.logoPng ?? []).equals(file.body)).toBe(true);
    });

    it("a JPEG replaces it, kept as a PNG at its own size (never enlarged); a charset parameter is fine", async () => {
      const result = await upload(team.owner.cookie, await jpegOf(320, 200), "Image/JPEG; charset=binary");
      expect(result.status, result.text).toBe(200);
      expect(result.json?.logo).toMatchObject({ width: 320, height: 200 });
      const file = await logo(team.member.cookie);
      expect(file.body.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      expect([PNG.sync.read(file.body).width, PNG.sync.read(file.body).height]).toEqual([320, 200]);
    });

    describe("refused uploads keep the logo there is", () => {
      let kept: Buffer;
      beforeAll(async () => {
        kept = (await logo()).body;
      });
      afterAll(async () => {
        expect((await logo()).body.equals(kept)).toBe(true);
        expect((await read()).json?.logo).toMatchObject({ width: 320, height: 200 });
      });

      it("over 256 KiB is 413, refused as the body passes the cap (not read to its end)", async () => {
        const { stream, counter } = endlessBody();
        const result = await upload(team.admin.cookie, stream, "image/png");
        expectError(result, 413, "PAYLOAD_TOO_LARGE");
        expect(result.json?.error).toBe("The logo is larger than 262,144 bytes (256 KiB).");
        expect(counter.bytes).toBeLessThanOrEqual(MAX_LOGO_BYTES + 3 * 64 * 1024);

        const oneOver = new Uint8Array(MAX_LOGO_BYTES + 1);
        oneOver.set(await pngOf(10, 10));
        expectError(await upload(team.admin.cookie, oneOver, "image/png"), 413, "PAYLOAD_TOO_LARGE");
      });

      const UNSUPPORTED: Array<[string, () => Promise<Uint8Array> | Uint8Array, string | null]> = [
        ["an SVG", () => SVG_LOGO, "image/svg+xml"],
        ["a GIF", () => gifOf(16, 16), "image/gif"],
        ["a WebP image", () => webpOf(16, 16), "image/webp"],
        ["text", () => Buffer.from("just words"), "text/plain"],
        ["JSON", () => Buffer.from('{"logo":"x"}'), "application/json"],
        ["a PNG with no Content-Type", () => pngOf(16, 16), null],
        ["a PNG sent as a form", () => pngOf(16, 16), "multipart/form-data; boundary=x"],
      ];
      it.each(UNSUPPORTED)("%s is 415 UNSUPPORTED_MEDIA_TYPE, with what to send instead", async (_name, make, type) => {
        const result = await upload(team.admin.cookie, await make(), type);
        expectError(result, 415, "UNSUPPORTED_MEDIA_TYPE");
        expect(String(result.json?.hint)).toMatch(/image\/png or image\/jpeg.*SVG/);
      });

      const UNDECODABLE: Array<[string, () => Promise<Uint8Array> | Uint8Array, string, RegExp]> = [
        [
          "a PNG claimed as a JPEG",
          () => pngOf(16, 16),
          "image/jpeg",
          /it is a PNG; send it with Content-Type: image\/png/,
        ],
        [
          "a JPEG claimed as a PNG",
          () => jpegOf(16, 16),
          "image/png",
          /it is a JPEG; send it with Content-Type: image\/jpeg/,
        ],
        [
          "an SVG claimed as a PNG",
          () => SVG_LOGO,
          "image/png",
          /not a readable PNG image: it does not begin like one/,
        ],
        ["text claimed as a JPEG", () => Buffer.from("GIF89a, or not"), "image/jpeg", /not a readable JPEG/],
        [
          "a truncated PNG",
          async () => (await pngOf(400, 400)).subarray(0, 120),
          "image/png",
          /not a readable PNG image: it is damaged or truncated|header cannot be read/,
        ],
        [
          "a truncated JPEG",
          async () => {
            const jpeg = await jpegOf(400, 400);
            return jpeg.subarray(0, jpeg.length - 200);
          },
          "image/jpeg",
          /not a readable JPEG image: it is damaged or truncated/,
        ],
        [
          "a 300-byte PNG claiming 50,000 × 50,000 pixels",
          () => pngClaiming(50_000, 50_000),
          "image/png",
          /^The image is 50,000 × 50,000 pixels; a logo may have at most 16,777,216/,
        ],
        ["an empty body", () => new Uint8Array(0), "image/png", /^The body is empty/],
      ];
      it.each(UNDECODABLE)("%s is 400 INVALID_REQUEST", async (_name, make, type, message) => {
        const result = await upload(team.admin.cookie, await make(), type);
        expectError(result, 400, "INVALID_REQUEST");
        expect(String(result.json?.error)).toMatch(message);
      });

      it("no refused upload is in the activity log", async () => {
        expect(await activity("branding.logo_set")).toHaveLength(2);
      });
    });

    it("DELETE removes it (204, logged once): reads say logo: null and the file is 404; again is 204, logged no more", async () => {
      const removed = await removeLogo();
      expect(removed.status, removed.text).toBe(204);
      expect(removed.text).toBe("");
      expect((await read()).json).toMatchObject({ displayName: "Northwind Agency", logo: null });
      expect((await logo()).status).toBe(404);
      const [stored] = await database.db
        .select()
        .from(organizationBranding)
        .where(eq(organizationBranding.organizationId, team.organizationId));
      expect([stored?.logoPng, stored?.logoWidth, stored?.logoHeight, stored?.logoBytes]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      expect((await removeLogo(team.owner.cookie)).status).toBe(204);
      const rows = await activity("branding.logo_removed");
      expect(rows).toHaveLength(1);
      expect(rows[0]?.actorEmail).toBe(team.admin.email);
    });
  });

  describe("tenant isolation", () => {
    it("another organization reads its own branding and logo, never this one's, and its changes stay its own", async () => {
      expect((await upload(team.admin.cookie, await pngOf(64, 64), "image/png")).status).toBe(200);
      expect((await read(other.viewer.cookie)).json).toEqual(NONE);
      expect((await logo(other.viewer.cookie)).status).toBe(404);
      expect((await patch({ displayName: "Other Co" }, other.admin.cookie)).status).toBe(200);
      expect((await removeLogo(other.owner.cookie)).status).toBe(204);
      expect((await read()).json).toMatchObject({ displayName: "Northwind Agency", logo: { width: 64, height: 64 } });
      expect((await logo()).status).toBe(200);
      const theirs = await database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.organizationId, other.organizationId), like(activityLog.action, "branding.%")));
      expect(theirs.map((row) => row.action)).toEqual(["branding.updated"]);
    });
  });

  describe("roles", () => {
    const routes: RouteCase[] = [
      { name: "GET /branding", handler: getBranding, method: "GET", path: "/api/account/branding", minRole: "viewer" },
      {
        name: "PATCH /branding",
        handler: patchBranding,
        method: "PATCH",
        path: "/api/account/branding",
        minRole: "admin",
        body: () => ({ footer: "Made by Northwind" }),
      },
      {
        name: "GET /branding/logo",
        handler: getLogo,
        method: "GET",
        path: "/api/account/branding/logo",
        minRole: "viewer",
      },
      {
        name: "DELETE /branding/logo",
        handler: deleteLogo,
        method: "DELETE",
        path: "/api/account/branding/logo",
        minRole: "admin",
      },
    ];
    const guarded: RouteCase[] = [
      ...routes,
      {
        name: "PUT /branding/logo",
        handler: putLogo,
        method: "PUT",
        path: "/api/account/branding/logo",
        minRole: "admin",
      },
    ];
    itChecksGuardOrder(guarded, () => team);
    itHintsAccountRequests(routes, () => team);

    describe("with a logo to read and remove", () => {
      beforeAll(async () => {
        expect((await upload(team.owner.cookie, await pngOf(32, 32), "image/png")).status).toBe(200);
      });
      itEnforcesRoles(routes, () => team);
    });

    it.each(ROLES)("PUT /branding/logo as %s: allowed from admin up", async (role) => {
      const result = await upload(team[role].cookie, await pngOf(24, 24), "image/png");
      if (role === "admin" || role === "owner") expect(result.status, result.text).toBe(200);
      else {
        expectError(result, 403, "FORBIDDEN");
        expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
      }
    });

    it("the role is checked before the body: a viewer's SVG is 403, not 415", async () => {
      expectError(await upload(team.viewer.cookie, SVG_LOGO, "image/svg+xml"), 403, "FORBIDDEN");
    });
  });
});
