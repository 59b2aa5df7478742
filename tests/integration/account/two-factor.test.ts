import { and, eq, gt, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as activityLog } from "@/app/api/account/activity-log/route";
import type { Database } from "@/lib/db";
import { outbox, verification } from "@/lib/db/schema";
import { resetAuthLimiters } from "@/lib/auth/limits";
import { parseTotpUri, totp, wrongCode } from "../../helpers/totp";
import { expectError } from "./guard-cases";
import { auth, BACKENDS, call, closeAll, cookieFrom, lastEmailTo, linkIn, signUp, useFreshDatabase } from "./harness";
import {
  codeStep,
  enrol,
  followSignInLink,
  meOf,
  meStatus,
  PASSWORD,
  passwordStep,
  setsSession,
} from "./two-factor-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
process.env.AUTH_IP_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * Two-factor sign-in (docs/spec/account-api.md "Two-factor sign-in") through the real /api/auth handler,
 * Better Auth and the account routes, on PGlite and PostgreSQL: enrolment, every first step held back until
 * a code, backup codes, trusted devices, the wrong-code limit with a clock the test moves, and what is
 * emailed and logged. (tests/integration/account/two-factor-server.test.ts runs the flows against the
 * production build, with the emails through SMTP and the limit across two instances.)
 */
describe.each(BACKENDS)("two-factor sign-in (%s)", (backend) => {
  let database: Database;
  let now = Date.now();

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    // The in-process limiter reads this clock: a window passes when the test says so.
    resetAuthLimiters(() => now);
  });

  /** A new account (signed up, so its own team's owner) with the factor on. */
  async function enrolledUser(name: string) {
    const email = `${name}-${backend}@example.com`;
    const enrolled = await enrol(await signUp(email));
    return { email, ...enrolled };
  }

  async function actionsOf(cookie: string): Promise<Array<{ action: string; details: Record<string, unknown> }>> {
    const result = await call(activityLog, "GET", "/api/account/activity-log?limit=100", { cookie });
    expect(result.status, result.text).toBe(200);
    return (result.json as { items: Array<{ action: string; details: Record<string, unknown> }> }).items;
  }

  it("enrols: the password gives an otpauth URI (SHA-1, 6 digits, 30 s, LinkLens) and 10 codes; on only after the first right code", async () => {
    const email = `enrol-${backend}@example.com`;
    const cookie = await signUp(email);
    expectError(
      await auth("POST", "/two-factor/enable", { cookie, body: { password: "not the password" } }),
      400,
      "INVALID_PASSWORD",
    );
    expectError(
      await auth("POST", "/two-factor/enable", { cookie, body: { password: PASSWORD, issuer: "Evil" } }),
      400,
      "INVALID_REQUEST",
    );
    const enabled = await auth("POST", "/two-factor/enable", { cookie, body: { password: PASSWORD } });
    expect(enabled.status, enabled.text).toBe(200);
    const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
    const uri = new URL(totpURI);
    expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(`otpauth://totp/LinkLens:${email}`);
    expect(uri.searchParams.get("algorithm") ?? "SHA1").toBe("SHA1");
    const { key, issuer, digits, period } = parseTotpUri(totpURI);
    expect({ issuer, digits, period }).toEqual({ issuer: "LinkLens", digits: 6, period: 30 });
    expect(new Set(backupCodes).size).toBe(10);

    // Enabled is not on: the factor waits for its first right code, and signing in needs none meanwhile.
    expect((await meOf(cookie)).user.twoFactorEnabled).toBe(false);
    const meanwhile = await passwordStep(email);
    expect(meanwhile.json).not.toHaveProperty("twoFactorRedirect");
    expect(setsSession(meanwhile.headers)).toBe(true);

    expectError(
      await auth("POST", "/two-factor/verify-totp", { cookie, body: { code: wrongCode(key) } }),
      401,
      "INVALID_CODE",
    );
    expect((await meOf(cookie)).user.twoFactorEnabled).toBe(false);
    const verified = await auth("POST", "/two-factor/verify-totp", { cookie, body: { code: totp(key) } });
    expect(verified.status, verified.text).toBe(200);
    const after = cookieFrom(verified.headers, cookie);
    expect((await meOf(after)).user.twoFactorEnabled).toBe(true);

    const [mail] = (await database.db.select().from(outbox).where(eq(outbox.recipient, email))).filter(
      (row) => row.kind === "two_factor_enabled",
    );
    expect(mail?.subject).toBe("Two-factor sign-in is on for your LinkLens account");
    expect(mail?.text).toContain("/app/settings#security");
    expect(mail?.html).toContain("<html>");
    expect((await actionsOf(after)).map((item) => item.action)).toContain("user.two_factor_enabled");
  });

  it("password sign-in answers { twoFactorRedirect: true } and no session until a right code", async () => {
    const user = await enrolledUser("password");
    const first = await passwordStep(user.email);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(setsSession(first.headers)).toBe(false);
    expect(await meStatus(first.cookie)).toBe(401);

    const wrong = await codeStep(first.cookie, { totp: wrongCode(user.key) });
    expectError(wrong, 401, "INVALID_CODE");
    expect(await meStatus(wrong.cookie)).toBe(401);
    const right = await codeStep(first.cookie, { totp: totp(user.key) });
    expect(right.status, right.text).toBe(200);
    expect(setsSession(right.headers)).toBe(true);
    expect((await meOf(right.cookie)).user.email).toBe(user.email);
    // The sign-in is logged once, when the code handed out the session (not at the held-back first step).
    const signIns = (await actionsOf(right.cookie)).filter((item) => item.action === "user.sign_in");
    expect(signIns.map((item) => item.details.method)).toEqual(["totp", "sign_up"]);
  });

  it("the emailed sign-in link is held back too: the browser lands on the second step without a session", async () => {
    const user = await enrolledUser("link");
    const followed = await followSignInLink(database, user.email, { callbackURL: "/app/monitors" });
    expect(followed.status, followed.text).toBe(302);
    expect(followed.headers.get("location")).toBe("/sign-in/two-factor?next=%2Fapp%2Fmonitors");
    expect(setsSession(followed.headers)).toBe(false);
    expect(await meStatus(followed.cookie)).toBe(401);
    const right = await codeStep(followed.cookie, { totp: totp(user.key) });
    expect(right.status, right.text).toBe(200);
    expect(await meStatus(right.cookie)).toBe(200);

    // A client that follows the link without a callbackURL gets Better Auth's JSON: held back as well.
    const bare = await followSignInLink(database, user.email);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.json).toMatchObject({ twoFactorRedirect: true });
    expect(setsSession(bare.headers)).toBe(false);
    expect(await meStatus(bare.cookie)).toBe(401);
  });

  it("the address confirmation that signs in is held back too", async () => {
    const email = `confirm-${backend}@example.com`;
    // Signed up, not confirmed: the confirmation email waits while the factor is turned on.
    await enrol(await signUp(email));
    const row = (await database.db.select().from(outbox).where(eq(outbox.recipient, email))).find(
      (mail) => mail.kind === "verify_email",
    );
    const url = new URL(linkIn(row?.text ?? ""));
    const followed = await auth("GET", `${url.pathname.replace(/^\/api\/auth/, "")}${url.search}`);
    expect(followed.status, followed.text).toBe(302);
    expect(followed.headers.get("location")).toMatch(/^\/sign-in\/two-factor\?next=/);
    expect(setsSession(followed.headers)).toBe(false);
    expect(await meStatus(cookieFrom(followed.headers))).toBe(401);
  });

  it("a backup code works once; its use is emailed (with the codes left) and logged", async () => {
    const user = await enrolledUser("backup");
    const code = user.backupCodes[0] ?? "";
    const first = await passwordStep(user.email);
    const used = await codeStep(first.cookie, { backup: code });
    expect(used.status, used.text).toBe(200);
    expect(await meStatus(used.cookie)).toBe(200);

    const again = await passwordStep(user.email);
    expectError(await codeStep(again.cookie, { backup: code }), 401, "INVALID_BACKUP_CODE");
    const other = await codeStep(again.cookie, { backup: user.backupCodes[1] ?? "" });
    expect(other.status, other.text).toBe(200);

    const mails = (await database.db.select().from(outbox).where(eq(outbox.recipient, user.email))).filter(
      (row) => row.kind === "backup_code_used",
    );
    expect(mails).toHaveLength(2);
    expect(mails.map((row) => row.text).join("\n")).toMatch(/9 of yours are left/);
    expect(mails.map((row) => row.text).join("\n")).toMatch(/8 of yours are left/);
    const log = await actionsOf(other.cookie);
    expect(log.filter((item) => item.action === "user.backup_code_used")).toHaveLength(2);
    expect(log.filter((item) => item.action === "user.sign_in").map((item) => item.details.method)).toEqual([
      "backup_code",
      "backup_code",
      "sign_up",
    ]);
  });

  it("a trusted device skips the code for 30 days from the code at most, and never after a sign-out", async () => {
    const user = await enrolledUser("trust");
    const first = await passwordStep(user.email);
    const trusted = await codeStep(first.cookie, { totp: totp(user.key) }, { trustDevice: true });
    expect(trusted.status, trusted.text).toBe(200);
    const device = trusted.cookie.split("; ").filter((pair) => pair.startsWith("better-auth.trust_device="))[0] ?? "";
    expect(device).not.toBe("");
    const userId = (await meOf(trusted.cookie)).user.id;
    /** The user's live trust rows (an expired one stays until it is swept; it trusts nothing). */
    const rows = () =>
      database.db
        .select()
        .from(verification)
        .where(
          and(
            eq(verification.value, userId),
            like(verification.identifier, "trust-device-%"),
            gt(verification.expiresAt, new Date()),
          ),
        );
    const [trust] = await rows();
    expect(trust?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    expect(trust?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    // On this device the password is enough; the renewed trust keeps the first one's expiry.
    const skipped = await passwordStep(user.email, device);
    expect(skipped.json).not.toHaveProperty("twoFactorRedirect");
    expect(setsSession(skipped.headers)).toBe(true);
    const [renewed] = await rows();
    expect(renewed?.identifier).not.toBe(trust?.identifier);
    expect(renewed?.expiresAt.getTime()).toBe(trust?.expiresAt.getTime());
    const log = await actionsOf(skipped.cookie);
    expect(log.find((item) => item.action === "user.sign_in")?.details).toMatchObject({
      method: "password",
      trustedDevice: true,
    });

    // When the 30 days are over (the row's expiry moved into the past), the code is asked for again.
    await database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, renewed?.identifier ?? ""));
    const expired = await passwordStep(user.email, skipped.cookie);
    expect(expired.json).toMatchObject({ twoFactorRedirect: true });

    // Trusted again, then signed out: even the old cookie, sent again, no longer skips the code.
    const again = await codeStep(expired.cookie, { totp: totp(user.key, Date.now() + 30_000) }, { trustDevice: true });
    expect(again.status, again.text).toBe(200);
    const trustedCookie = again.cookie;
    const out = await auth("POST", "/sign-out", { cookie: trustedCookie, body: {} });
    expect(out.status, out.text).toBe(200);
    expect(out.headers.getSetCookie().some((line) => /^better-auth\.trust_device=;.*max-age=0/i.test(line))).toBe(true);
    expect(await rows()).toHaveLength(0);
    const replayed = await passwordStep(user.email, trustedCookie);
    expect(replayed.json).toMatchObject({ twoFactorRedirect: true });
    expect(setsSession(replayed.headers)).toBe(false);
  });

  it("at most 5 wrong codes per user per 15 minutes, TOTP and backup codes together, then 429 until the window passes", async () => {
    const user = await enrolledUser("limit");
    const first = await passwordStep(user.email);
    const wrongs = [
      { totp: wrongCode(user.key) },
      { backup: "wrong-code1" },
      { totp: wrongCode(user.key) },
      { backup: "wrong-code2" },
      { totp: wrongCode(user.key) },
    ];
    for (const code of wrongs) {
      const result = await codeStep(first.cookie, code);
      expect(result.status, result.text).toBe(401);
    }
    // The sixth code is refused unchecked, even the right one, and so is a backup code.
    for (const code of [{ totp: totp(user.key) }, { backup: user.backupCodes[0] ?? "" }]) {
      const refused = await codeStep(first.cookie, code);
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await meStatus(refused.cookie)).toBe(401);
    }
    // The limit is the user's, not the sign-in's: a new first step does not reset it.
    const second = await passwordStep(user.email);
    expectError(await codeStep(second.cookie, { totp: totp(user.key) }), 429, "RATE_LIMITED");
    // Another user is not affected.
    const other = await enrolledUser("limit-other");
    const theirs = await passwordStep(other.email);
    expect((await codeStep(theirs.cookie, { totp: totp(other.key) })).status).toBe(200);

    now += 14 * 60_000;
    expectError(await codeStep(second.cookie, { totp: totp(user.key) }), 429, "RATE_LIMITED");
    now += 61_000;
    const allowed = await codeStep(second.cookie, { totp: totp(user.key) });
    expect(allowed.status, allowed.text).toBe(200);
    expect(await meStatus(allowed.cookie)).toBe(200);
  });

  it("turning the factor off takes the password, ends every trusted device, and is emailed and logged", async () => {
    const user = await enrolledUser("off");
    const first = await passwordStep(user.email);
    const trusted = await codeStep(first.cookie, { totp: totp(user.key) }, { trustDevice: true });
    expectError(
      await auth("POST", "/two-factor/disable", { cookie: trusted.cookie, body: { password: "wrong password" } }),
      400,
      "INVALID_PASSWORD",
    );
    const off = await auth("POST", "/two-factor/disable", { cookie: trusted.cookie, body: { password: PASSWORD } });
    expect(off.status, off.text).toBe(200);
    const cookie = cookieFrom(off.headers, trusted.cookie);
    const me = await meOf(cookie);
    expect(me.user.twoFactorEnabled).toBe(false);
    const trust = await database.db
      .select()
      .from(verification)
      .where(and(eq(verification.value, me.user.id), like(verification.identifier, "trust-device-%")));
    expect(trust).toEqual([]);
    const plain = await passwordStep(user.email);
    expect(plain.json).not.toHaveProperty("twoFactorRedirect");
    expect(setsSession(plain.headers)).toBe(true);
    const mail = await lastEmailTo(database, user.email);
    expect(mail.kind).toBe("two_factor_disabled");
    expect((await actionsOf(cookie)).map((item) => item.action)).toContain("user.two_factor_disabled");
  });

  it("new backup codes take the password and replace the old ones", async () => {
    const user = await enrolledUser("regenerate");
    expectError(
      await auth("POST", "/two-factor/generate-backup-codes", { cookie: user.cookie, body: { password: "nope nope" } }),
      400,
      "INVALID_PASSWORD",
    );
    const fresh = await auth("POST", "/two-factor/generate-backup-codes", {
      cookie: user.cookie,
      body: { password: PASSWORD },
    });
    expect(fresh.status, fresh.text).toBe(200);
    const codes = (fresh.json as { backupCodes: string[] }).backupCodes;
    expect(codes).toHaveLength(10);
    const first = await passwordStep(user.email);
    expectError(await codeStep(first.cookie, { backup: user.backupCodes[0] ?? "" }), 401, "INVALID_BACKUP_CODE");
    expect((await codeStep(first.cookie, { backup: codes[0] ?? "" })).status).toBe(200);
    expect((await actionsOf(user.cookie)).map((item) => item.action)).toContain("user.backup_codes_regenerated");
  });
});
