import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import { POST as invite } from "@/app/api/account/invitations/route";
import type { Database } from "@/lib/db";
import { auth, BACKENDS, call, closeAll, lastEmailTo, signUp, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
process.env.AUTH_IP_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * User and team names end up in email subjects, headers and every page of the app. They were taken at
 * any length and with line breaks (a 60,000-character name made a 272 KB invitation with a
 * 60,145-character subject). Every path that sets one refuses more than 100 characters and control
 * characters (C0, DEL, C1, U+2028/U+2029) with 400 naming the field; every subject is capped in lib/mail.
 */

const LONG = "x".repeat(101);
const BAD = [
  ["101 characters", LONG, "name: must be at most 100 characters."],
  ["60,000 characters", "y".repeat(60_000), "name: must be at most 100 characters."],
  [
    "CR LF",
    "Eve\r\nBcc: all@example.com",
    "name: must not contain control characters (line breaks, tabs and the like).",
  ],
  ["a tab", "Eve\tSmith", "name: must not contain control characters (line breaks, tabs and the like)."],
  [
    "a C1 control (NEL)",
    "Eve\u0085Smith",
    "name: must not contain control characters (line breaks, tabs and the like).",
  ],
  ["U+2028", "Eve\u2028Smith", "name: must not contain control characters (line breaks, tabs and the like)."],
  ["U+2029", "Eve\u2029Smith", "name: must not contain control characters (line breaks, tabs and the like)."],
  ["DEL", "Eve\u007f", "name: must not contain control characters (line breaks, tabs and the like)."],
] as const;

describe.each(BACKENDS)("names are at most 100 characters, without control characters (%s)", (backend) => {
  let database: Database;
  let cookie: string;
  let counter = 0;
  const fresh = () => `names-${(counter += 1)}@example.com`;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    cookie = await signUp("names-owner@example.com", "correct horse battery", "Owner");
  }, 120_000);

  it.each(BAD)("sign-up/email refuses a name with %s", async (_what, name, message) => {
    const email = fresh();
    const result = await auth("POST", "/sign-up/email", { body: { email, password: "correct horse battery", name } });
    expectError(result, 400, "INVALID_REQUEST");
    expect(result.json?.error).toBe(message);
    // Nothing was created: the address signs up cleanly afterwards.
    expect(
      (await auth("POST", "/sign-up/email", { body: { email, password: "correct horse battery", name: "Fine" } }))
        .status,
    ).toBe(200);
  });

  it.each(BAD)("update-user refuses a name with %s", async (_what, name, message) => {
    const result = await auth("POST", "/update-user", { cookie, body: { name } });
    expectError(result, 400, "INVALID_REQUEST");
    expect(result.json?.error).toBe(message);
  });

  it.each(BAD)(
    "sign-in/magic-link (which names a new account) refuses a name with %s",
    async (_what, name, message) => {
      const result = await auth("POST", "/sign-in/magic-link", { body: { email: fresh(), name } });
      expectError(result, 400, "INVALID_REQUEST");
      expect(result.json?.error).toBe(message);
    },
  );

  it.each(BAD)("organization/create and organization/update refuse a name with %s", async (_what, name, message) => {
    const created = await auth("POST", "/organization/create", { cookie, body: { name, slug: `slug-${counter++}` } });
    expectError(created, 400, "INVALID_REQUEST");
    expect(created.json?.error).toBe(message);
    const updated = await auth("POST", "/organization/update", { cookie, body: { data: { name } } });
    expectError(updated, 400, "INVALID_REQUEST");
    expect(updated.json?.error).toBe(`data.${message}`);
  });

  it("a name that is not text is 400 naming it (update-user takes any JSON value)", async () => {
    for (const name of [["a"], { a: 1 }, 42]) {
      const result = await auth("POST", "/update-user", { cookie, body: { name } });
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(/^name: /);
    }
  });

  it("slugs follow the same rule", async () => {
    const result = await auth("POST", "/organization/create", { cookie, body: { name: "Fine", slug: "a\nb" } });
    expectError(result, 400, "INVALID_REQUEST");
    expect(result.json?.error).toBe("slug: must not contain control characters (line breaks, tabs and the like).");
  });

  it("100 characters, accents and emoji (one character each) are fine, and the personal team's name stays within 100", async () => {
    const name = `${"é".repeat(98)}🙂🙂`;
    const email = fresh();
    const signedUp = await auth("POST", "/sign-up/email", { body: { email, password: "correct horse battery", name } });
    expect(signedUp.status, signedUp.text).toBe(200);
    const newCookie = (signedUp.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const who = await call(me, "GET", "/api/account/me", { cookie: newCookie });
    const organization = (who.json as { organization: { name: string } }).organization.name;
    expect([...organization].length).toBeLessThanOrEqual(100);
    expect(organization.endsWith("'s team")).toBe(true);
    const renamed = await auth("POST", "/update-user", { cookie, body: { name: "Ünïcødé Owner 🙂" } });
    expect(renamed.status, renamed.text).toBe(200);
    const org = await auth("POST", "/organization/update", { cookie, body: { data: { name: "z".repeat(100) } } });
    expect(org.status, org.text).toBe(200);
  });

  it("an invitation's subject is at most 200 characters on one line, however long the names", async () => {
    const inviter = await signUp(fresh(), "correct horse battery", "I".repeat(100));
    expect(
      (await auth("POST", "/organization/update", { cookie: inviter, body: { data: { name: "T".repeat(100) } } }))
        .status,
    ).toBe(200);
    const invited = await call(invite, "POST", "/api/account/invitations", {
      cookie: inviter,
      body: { email: "subject@example.com", role: "member" },
    });
    expect(invited.status, invited.text).toBe(201);
    const email = await lastEmailTo(database, "subject@example.com");
    expect([...email.subject].length).toBe(200);
    expect(email.subject.endsWith("…")).toBe(true);
    expect(email.subject.startsWith(`${"I".repeat(100)} invited you to TTT`)).toBe(true);
  });
});
