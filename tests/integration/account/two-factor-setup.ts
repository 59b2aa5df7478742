import { expect } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import type { Database } from "@/lib/db";
import { parseTotpUri, totp } from "../../helpers/totp";
import { auth, call, cookieFrom, lastEmailTo, linkIn } from "./harness";

/**
 * Two-factor sign-in as a person does it, through the real /api/auth handler: enrol with the password,
 * compute codes from the secret like an authenticator app (tests/helpers/totp.ts), sign in in two steps.
 */

export const PASSWORD = "correct horse battery";

export interface Enrolled {
  key: Buffer;
  backupCodes: string[];
  /** The session after enrolment (Better Auth replaces it when the factor turns on). */
  cookie: string;
  totpURI: string;
}

/** The status of GET /api/account/me with a cookie: 200 only with a session. */
export async function meStatus(cookie: string): Promise<number> {
  return (await call(me, "GET", "/api/account/me", { cookie })).status;
}

export async function meOf(cookie: string) {
  const result = await call(me, "GET", "/api/account/me", { cookie });
  expect(result.status, result.text).toBe(200);
  return result.json as {
    user: { id: string; email: string; twoFactorEnabled: boolean };
    organization: { id: string; requireTwoFactor: boolean };
  };
}

/** Enable with the password, then the first right code: the factor is on. */
export async function enrol(cookie: string, password = PASSWORD): Promise<Enrolled> {
  const enabled = await auth("POST", "/two-factor/enable", { cookie, body: { password } });
  expect(enabled.status, enabled.text).toBe(200);
  const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
  const { key } = parseTotpUri(totpURI);
  const verified = await auth("POST", "/two-factor/verify-totp", { cookie, body: { code: totp(key) } });
  expect(verified.status, verified.text).toBe(200);
  return { key, backupCodes, cookie: cookieFrom(verified.headers, cookie), totpURI };
}

/** The password step: its answer and the cookies it set (the pending sign-in's, never a session). */
export async function passwordStep(email: string, cookie = "", password = PASSWORD) {
  const result = await auth("POST", "/sign-in/email", { cookie, body: { email, password } });
  return { ...result, cookie: cookieFrom(result.headers, cookie) };
}

/** The second step with a TOTP code (or a backup code); returns the answer and the cookies after it. */
export async function codeStep(
  cookie: string,
  code: { totp: string } | { backup: string },
  options: { trustDevice?: boolean; headers?: Record<string, string> } = {},
) {
  const [path, value] =
    "totp" in code ? ["/two-factor/verify-totp", code.totp] : ["/two-factor/verify-backup-code", code.backup];
  const result = await auth("POST", path, {
    cookie,
    headers: options.headers,
    body: { code: value, ...(options.trustDevice ? { trustDevice: true } : {}) },
  });
  return { ...result, cookie: cookieFrom(result.headers, cookie) };
}

/** Whether a response sets a live session cookie (an expiring one does not count). */
export function setsSession(headers: Headers): boolean {
  return headers
    .getSetCookie()
    .some((line) => /^better-auth\.session_token=[^;]+/.test(line) && !/max-age=0/i.test(line));
}

/** Asks for a sign-in link and follows it as the mailbox's owner would (a GET, no cookie). */
export async function followSignInLink(
  database: Database,
  email: string,
  options: { callbackURL?: string; cookie?: string } = {},
) {
  const asked = await auth("POST", "/sign-in/magic-link", {
    body: { email, ...(options.callbackURL ? { callbackURL: options.callbackURL } : {}) },
  });
  expect(asked.status, asked.text).toBe(200);
  const row = await lastEmailTo(database, email);
  expect(row.kind).toBe("magic_link");
  const url = new URL(linkIn(row.text));
  if (!options.callbackURL) url.searchParams.delete("callbackURL");
  const followed = await auth("GET", `${url.pathname.replace(/^\/api\/auth/, "")}${url.search}`, {
    cookie: options.cookie,
  });
  return { ...followed, cookie: cookieFrom(followed.headers, options.cookie ?? "") };
}
