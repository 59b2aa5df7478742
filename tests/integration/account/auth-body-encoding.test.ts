import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "@/lib/auth/auth-endpoint";
import { auth, closeAll, cookieFrom, ORIGIN, signUp, useFreshDatabase } from "./harness";
import { ERROR_KEYS } from "../../helpers/server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "3";
process.env.AUTH_IP_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * Better Auth takes sign-in/email and sign-up/email as JSON or as a form
 * (application/x-www-form-urlencoded). The checks in front of it (per-email limit, NUL, name rules, the
 * team gate) read JSON, so a form body walked past them: 30 wrong passwords for one address in form
 * bodies were never limited. /api/auth takes JSON only: any other body is 415 before Better Auth runs.
 */

function send(path: string, contentType: string, body: string, clientKey = "198.51.100.20") {
  const headers = new Headers({
    host: "localhost:3000",
    origin: ORIGIN,
    "content-type": contentType,
    "x-linklens-client-key": clientKey,
  });
  return handleAuthRequest(new Request(`${ORIGIN}/api/auth${path}`, { method: "POST", headers, body }));
}

async function expectUnsupported(response: Response) {
  const text = await response.text();
  expect(response.status, text).toBe(415);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
  expect(body).toMatchObject({ success: false, errorCode: "UNSUPPORTED_MEDIA_TYPE" });
  expect(String(body.hint)).toMatch(/application\/json/);
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

// The limiter's storage is in-process here; the database backend does not matter.
describe("/api/auth takes JSON bodies only", () => {
  beforeAll(async () => {
    await useFreshDatabase("pglite");
    await signUp("victim@example.com", "the right password");
  });

  it("30 wrong passwords for one address in form bodies never reach Better Auth: each is 415, and none signs in", async () => {
    for (let i = 0; i < 30; i += 1) {
      await expectUnsupported(
        await send(
          "/sign-in/email",
          "application/x-www-form-urlencoded",
          form({ email: "victim@example.com", password: `guess ${i}` }),
          `198.51.100.${i}`,
        ),
      );
    }
    const right = await send(
      "/sign-in/email",
      "application/x-www-form-urlencoded",
      form({ email: "victim@example.com", password: "the right password" }),
    );
    await expectUnsupported(right);
    expect(cookieFrom(right.headers)).toBe("");
  });

  it("a form sign-up is 415 (a NUL in its name included) and creates no account", async () => {
    await expectUnsupported(
      await send(
        "/sign-up/email",
        "application/x-www-form-urlencoded",
        form({ email: "formed@example.com", password: "correct horse battery", name: "N\u0000" }),
      ),
    );
    await expectUnsupported(
      await send(
        "/sign-up/email",
        "application/x-www-form-urlencoded",
        form({ email: "formed@example.com", password: "correct horse battery", name: "Form" }),
      ),
    );
    const clean = await auth("POST", "/sign-up/email", {
      headers: { "x-linklens-client-key": "192.0.2.50" },
      body: { email: "formed@example.com", password: "correct horse battery", name: "Form" },
    });
    expect(clean.status, clean.text).toBe(200);
  });

  it("multipart and text bodies are 415 too, wherever they are sent; JSON with a charset and empty bodies are fine", async () => {
    const multipart = new FormData();
    multipart.set("email", "victim@example.com");
    multipart.set("password", "guess");
    const request = new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { host: "localhost:3000", origin: ORIGIN, "x-linklens-client-key": "192.0.2.9" },
      body: multipart,
    });
    await expectUnsupported(await handleAuthRequest(request));
    await expectUnsupported(
      await send("/sign-in/magic-link", "text/plain", JSON.stringify({ email: "victim@example.com" })),
    );
    await expectUnsupported(
      await send("/organization/accept-invitation", "application/x-www-form-urlencoded", form({ invitationId: "x" })),
    );
    const charset = await send(
      "/sign-in/email",
      "application/json; charset=utf-8",
      JSON.stringify({ email: "nobody@example.com", password: "whatever123" }),
      "192.0.2.10",
    );
    expect(charset.status).toBe(401);
    // sign-out from a script: no body at all, whatever the header says.
    const out = await send("/sign-out", "application/x-www-form-urlencoded", "");
    expect(out.status).toBe(200);
  });
});
