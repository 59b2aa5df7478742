import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
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
  verifyEmail,
} from "./harness";
import { ERROR_KEYS } from "../../helpers/server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

const alive = async (cookie: string) => (await call(me, "GET", "/api/account/me", { cookie })).status === 200;

/** Requests a magic link for `email` and follows it; returns the new session's cookie. */
async function magicSignIn(database: Database, email: string): Promise<string> {
  const requested = await auth("POST", "/sign-in/magic-link", { body: { email, callbackURL: "/app" } });
  expect(requested.status, requested.text).toBe(200);
  const row = await lastEmailTo(database, email);
  expect(row.kind).toBe("magic_link");
  expect(row.status).toBe("pending");
  const url = new URL(linkIn(row.text));
  const followed = await auth("GET", `${url.pathname.replace(/^\/api\/auth/, "")}${url.search}`);
  expect(followed.status, followed.text).toBe(302);
  return cookieFrom(followed.headers);
}

describe.each(BACKENDS)("sessions (%s)", (backend) => {
  let database: Database;
  beforeAll(async () => {
    database = await useFreshDatabase(backend);
  });

  it("sign-up creates a personal organization with the user as owner, and sends a verification email", async () => {
    const cookie = await signUp("grace@example.com", "correct horse battery", "Grace");
    const body = (await call(me, "GET", "/api/account/me", { cookie })).json as Record<string, unknown>;
    expect(body).toMatchObject({
      user: { email: "grace@example.com", name: "Grace" },
      role: "owner",
      organization: { name: "Grace's team" },
    });
    expect(body.organizations).toHaveLength(1);
    expect((await lastEmailTo(database, "grace@example.com")).kind).toBe("verify_email");
  });

  it("Better Auth failures leave in the public Error body with its code and status", async () => {
    const wrong = await auth("POST", "/sign-in/email", {
      body: { email: "grace@example.com", password: "wrong password!" },
    });
    expect(wrong.status).toBe(401);
    expect(Object.keys(wrong.json ?? {}).sort()).toEqual(ERROR_KEYS);
    expect(wrong.json).toMatchObject({ success: false, errorCode: "INVALID_EMAIL_OR_PASSWORD" });
    const again = await auth("POST", "/sign-up/email", {
      body: { email: "grace@example.com", password: "another password", name: "G" },
    });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ errorCode: "USER_ALREADY_EXISTS" });
    const unknown = await auth("GET", "/no-such-endpoint");
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.json ?? {}).sort()).toEqual(ERROR_KEYS);
  });

  it("/api/auth mutations pass the origin rule", async () => {
    const foreign = await auth("POST", "/sign-in/email", {
      body: { email: "grace@example.com", password: "correct horse battery" },
      origin: "https://evil.example",
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ errorCode: "INVALID_ORIGIN" });
    const crossSite = await auth("POST", "/sign-in/email", {
      body: { email: "grace@example.com", password: "correct horse battery" },
      origin: null,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.json).toMatchObject({ errorCode: "INVALID_ORIGIN" });
  });

  it("add-member (a member without an invitation) is closed in favour of an invitation", async () => {
    const cookie = await signIn("grace@example.com");
    const result = await auth("POST", "/organization/add-member", { cookie, body: { userId: "x", role: "admin" } });
    expect(result.status).toBe(404);
    expect(String(result.json?.hint)).toMatch(/\/api\/account\/invitations/);
  });

  it("sign-out ends the session", async () => {
    const cookie = await signIn("grace@example.com");
    expect(await alive(cookie)).toBe(true);
    const out = await auth("POST", "/sign-out", { cookie });
    expect(out.status, out.text).toBe(200);
    expect(await alive(cookie)).toBe(false);
  });

  it("a magic-link sign-in of a verified user leaves the earlier password session alone", async () => {
    await verifyEmail(database, "grace@example.com");
    const password = await signIn("grace@example.com");
    const magic = await magicSignIn(database, "grace@example.com");
    expect(magic).not.toBe(password);
    expect(await alive(magic)).toBe(true);
    expect(await alive(password)).toBe(true);
    // And the password still works afterwards.
    expect(await alive(await signIn("grace@example.com"))).toBe(true);
  });

  it("why sessions ended before: a first magic link on an unverified account revokes its sessions (Better Auth's takeover guard)", async () => {
    const cookie = await signUp("unverified@example.com");
    const magic = await magicSignIn(database, "unverified@example.com");
    expect(await alive(magic)).toBe(true);
    expect(await alive(cookie)).toBe(false);
  });

  it("a magic link works once", async () => {
    await magicSignIn(database, "grace@example.com");
    const row = await lastEmailTo(database, "grace@example.com");
    const url = new URL(linkIn(row.text));
    const reused = await auth("GET", `${url.pathname.replace(/^\/api\/auth/, "")}${url.search}`);
    expect(reused.status).toBe(302);
    expect(reused.headers.get("location")).toMatch(/error=INVALID_TOKEN/);
  });

  it("a bad emailed token is Better Auth's 401 INVALID_TOKEN with a hint about the link, not the password", async () => {
    const result = await auth("GET", "/verify-email?token=nope");
    expect(result.status, result.text).toBe(401);
    expect(result.json).toMatchObject({
      errorCode: "INVALID_TOKEN",
      hint: "The link is spent or has expired: ask for a new one.",
    });
  });

  it("lists sessions and revokes the others", async () => {
    const a = await signIn("grace@example.com");
    const b = await signIn("grace@example.com");
    const list = await auth("GET", "/list-sessions", { cookie: a });
    expect(list.status).toBe(200);
    expect((list.json as unknown as unknown[]).length).toBeGreaterThanOrEqual(2);
    const revoked = await auth("POST", "/revoke-other-sessions", { cookie: a });
    expect(revoked.status, revoked.text).toBe(200);
    expect(await alive(a)).toBe(true);
    expect(await alive(b)).toBe(false);
  });

  it("a reset asked for without redirectTo (a script) still emails a link that lands on the reset page with its token", async () => {
    const asked = await auth("POST", "/request-password-reset", { origin: null, body: { email: "grace@example.com" } });
    expect(asked.status, asked.text).toBe(200);
    const link = new URL(linkIn((await lastEmailTo(database, "grace@example.com")).text));
    const followed = await auth("GET", `${link.pathname.replace(/^\/api\/auth/, "")}${link.search}`);
    expect(followed.status).toBe(302);
    const landing = new URL(followed.headers.get("location") ?? "", "http://localhost:3000");
    expect(landing.pathname).toBe("/reset-password");
    const token = landing.searchParams.get("token");
    expect(token).toBeTruthy();
    const reset = await auth("POST", "/reset-password", { body: { token, newPassword: "correct horse battery" } });
    expect(reset.status, reset.text).toBe(200);
  });

  it("resets a password by email: the new one works, the old one and old sessions do not", async () => {
    const before = await signIn("grace@example.com");
    const asked = await auth("POST", "/request-password-reset", {
      body: { email: "grace@example.com", redirectTo: "/reset-password" },
    });
    expect(asked.status, asked.text).toBe(200);
    const row = await lastEmailTo(database, "grace@example.com");
    expect(row.kind).toBe("password_reset");
    const link = new URL(linkIn(row.text));
    const token = link.pathname.split("/").pop() ?? "";
    const reset = await auth("POST", "/reset-password", { body: { token, newPassword: "a brand new password" } });
    expect(reset.status, reset.text).toBe(200);
    expect(await alive(before)).toBe(false);
    expect(await alive(await signIn("grace@example.com", "a brand new password"))).toBe(true);
    const old = await auth("POST", "/sign-in/email", {
      body: { email: "grace@example.com", password: "correct horse battery" },
    });
    expect(old.status).toBe(401);
  });
});
