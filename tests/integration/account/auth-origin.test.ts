import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import { handleAuthRequest } from "@/lib/auth/auth-endpoint";
import type { Database } from "@/lib/db";
import {
  auth,
  BACKENDS,
  call,
  closeAll,
  cookieFrom,
  lastEmailTo,
  linkIn,
  signIn,
  signUp,
  useFreshDatabase,
  type CallOptions,
} from "./harness";
import { ERROR_KEYS } from "../../helpers/server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
// One trusted proxy in front: X-Forwarded-Proto/Host say how the site is served. SITE_URL stays unset.
process.env.TRUSTED_PROXY_HOPS = "1";
delete process.env.SITE_URL;

afterAll(closeAll);

/**
 * docs/spec/account-api.md check 3 on /api/auth/*: a mutation is refused 403 INVALID_ORIGIN only when its Origin is
 * another site's, or it has no Origin and says `Sec-Fetch-Site: cross-site`. No Origin is a non-browser
 * client and is served, with or without its session cookie.
 */
const ALLOWED: Array<[string, CallOptions]> = [
  ["no Origin, no Sec-Fetch-Site", { origin: null }],
  [
    "no Origin, Sec-Fetch-Site: same-origin",
    { origin: null, headers: { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" } },
  ],
  [
    "no Origin, Sec-Fetch-Site: none",
    { origin: null, headers: { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" } },
  ],
  ["the site's own Origin", {}],
];
const REFUSED: Array<[string, CallOptions]> = [
  ["another site's Origin", { origin: "https://evil.example" }],
  ["Origin: null", { origin: "null" }],
  [
    "no Origin, Sec-Fetch-Site: cross-site",
    { origin: null, headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" } },
  ],
];

let serial = 0;
const freshEmail = () => `origin-${(serial += 1)}@example.com`;

/** Each endpoint with a valid request; the session cookie (when it takes one) is made fresh per call. */
const ENDPOINTS: Array<{ name: string; send: (variant: CallOptions) => Promise<Awaited<ReturnType<typeof auth>>> }> = [
  {
    name: "POST /sign-up/email",
    send: (v) =>
      auth("POST", "/sign-up/email", {
        ...v,
        body: { email: freshEmail(), password: "correct horse battery", name: "O" },
      }),
  },
  {
    name: "POST /sign-in/email",
    send: (v) =>
      auth("POST", "/sign-in/email", { ...v, body: { email: "owner@example.com", password: "correct horse battery" } }),
  },
  {
    name: "POST /sign-in/magic-link",
    send: (v) =>
      auth("POST", "/sign-in/magic-link", { ...v, body: { email: "owner@example.com", callbackURL: "/app" } }),
  },
  {
    name: "POST /request-password-reset",
    send: (v) =>
      auth("POST", "/request-password-reset", {
        ...v,
        body: { email: "owner@example.com", redirectTo: "/reset-password" },
      }),
  },
  {
    name: "POST /sign-out (with its cookie)",
    send: async (v) => auth("POST", "/sign-out", { ...v, cookie: await signIn("owner@example.com") }),
  },
  {
    name: "POST /update-user (with its cookie)",
    send: async (v) =>
      auth("POST", "/update-user", { ...v, cookie: await signIn("owner@example.com"), body: { name: "Owner" } }),
  },
  {
    name: "POST /revoke-other-sessions (with its cookie)",
    send: async (v) => auth("POST", "/revoke-other-sessions", { ...v, cookie: await signIn("owner@example.com") }),
  },
];

describe.each(BACKENDS)("/api/auth and the origin rule (%s)", (backend) => {
  let database: Database;
  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    await signUp("owner@example.com");
  });

  describe.each(ENDPOINTS)("$name", ({ send }) => {
    it.each(ALLOWED)("is served with %s", async (_label, variant) => {
      const result = await send(variant);
      expect(result.status, result.text).toBe(200);
    });

    it.each(REFUSED)("is refused 403 INVALID_ORIGIN with %s", async (_label, variant) => {
      const result = await send(variant);
      expect(result.status, result.text).toBe(403);
      expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
      expect(result.json).toMatchObject({ success: false, errorCode: "INVALID_ORIGIN" });
    });
  });

  it("a POST without a body or Content-Type (sign-out from a script) is served, not refused 415", async () => {
    const cookie = await signIn("owner@example.com");
    // As a route handler receives it: an empty body stream, no Content-Type.
    const request = new Request("http://localhost:3000/api/auth/sign-out", {
      method: "POST",
      headers: { host: "localhost:3000", "x-linklens-client-key": "127.0.0.1", cookie },
      body: "",
    });
    expect(request.body).not.toBeNull();
    const response = await handleAuthRequest(request);
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await call(me, "GET", "/api/account/me", { cookie })).status).toBe(401);
  });

  it("a body over 64 KiB is 413 on any /api/auth endpoint, before Better Auth reads it", async () => {
    const cookie = await signIn("owner@example.com");
    const result = await auth("POST", "/update-user", { cookie, body: { name: "x".repeat(70 * 1024) } });
    expect(result.status).toBe(413);
    expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
    expect(result.json).toMatchObject({ errorCode: "PAYLOAD_TOO_LARGE" });
  });

  it("a callbackURL on another site is refused (no open redirect through sign-in links)", async () => {
    const result = await auth("POST", "/sign-in/magic-link", {
      body: { email: "owner@example.com", callbackURL: "https://evil.example/phish" },
    });
    expect(result.status).toBe(403);
    expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
    expect(result.json).toMatchObject({ errorCode: "INVALID_CALLBACK_URL" });
  });

  describe("cookies follow the scheme the site is served over", () => {
    const overHttps = { "x-forwarded-proto": "https", "x-forwarded-host": "links.example.com" };

    it("over https (a trusted proxy says so, no SITE_URL) the session cookie is Secure, HttpOnly, SameSite=Lax, and it works", async () => {
      const result = await auth("POST", "/sign-in/email", {
        origin: "https://links.example.com",
        headers: overHttps,
        body: { email: "owner@example.com", password: "correct horse battery" },
      });
      expect(result.status, result.text).toBe(200);
      const session = result.headers.getSetCookie().find((line) => line.includes("session_token="));
      expect(session).toBeDefined();
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(session).toMatch(/;\s*SameSite=Lax/i);
      const cookie = cookieFrom(result.headers);
      expect((await call(me, "GET", "/api/account/me", { cookie, headers: overHttps })).status).toBe(200);
    });

    it("over plain http the cookie is not Secure (the browser would never send it back)", async () => {
      const result = await auth("POST", "/sign-in/email", {
        body: { email: "owner@example.com", password: "correct horse battery" },
      });
      expect(result.status).toBe(200);
      const session = result.headers.getSetCookie().find((line) => line.includes("session_token="));
      expect(session).toBeDefined();
      expect(session).not.toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
    });
  });

  describe("links and redirects without SITE_URL", () => {
    it("an emailed sign-in link never takes its host from the request (a forged Host cannot poison it)", async () => {
      const forged = {
        origin: null,
        headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      };
      const magic = await auth("POST", "/sign-in/magic-link", {
        ...forged,
        body: { email: "owner@example.com", callbackURL: "/app" },
      });
      expect(magic.status, magic.text).toBe(200);
      const magicLink = new URL(linkIn((await lastEmailTo(database, "owner@example.com")).text));
      expect(magicLink.origin).toBe("http://localhost:3000");
      expect(magicLink.pathname).toBe("/api/auth/magic-link/verify");

      const reset = await auth("POST", "/request-password-reset", {
        ...forged,
        body: { email: "owner@example.com", redirectTo: "/reset-password" },
      });
      expect(reset.status, reset.text).toBe(200);
      expect(new URL(linkIn((await lastEmailTo(database, "owner@example.com")).text)).origin).toBe(
        "http://localhost:3000",
      );
    });

    it("following a link returns the browser to the host it used, signed in there", async () => {
      await auth("POST", "/sign-in/magic-link", {
        origin: null,
        body: { email: "owner@example.com", callbackURL: "/app" },
      });
      const link = new URL(linkIn((await lastEmailTo(database, "owner@example.com")).text));
      const followed = await auth("GET", `${link.pathname.replace(/^\/api\/auth/, "")}${link.search}`, {
        headers: { host: "linkbox.lan:3000" },
      });
      expect(followed.status, followed.text).toBe(302);
      expect(followed.headers.get("location")).toBe("http://linkbox.lan:3000/app");
      const cookie = cookieFrom(followed.headers);
      expect((await call(me, "GET", "/api/account/me", { cookie, headers: { host: "linkbox.lan:3000" } })).status).toBe(
        200,
      );
    });
  });
});
