import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, closeAll, useFreshDatabase } from "./harness";
import { ERROR_KEYS } from "../../helpers/server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "3";
process.env.AUTH_IP_RATE_LIMIT_PER_15_MIN = "5";

afterAll(closeAll);

// The limiter's storage is the public limiter's (in-process here); the database backend does not matter.
describe("sign-in limits (per IP and per email)", () => {
  beforeAll(async () => {
    await useFreshDatabase("pglite");
  });

  it("the 6th attempt from one IP within 15 minutes is 429 whatever the email, with Retry-After (the IP window is its own)", async () => {
    const from = { headers: { "x-linklens-client-key": "198.51.100.7" } };
    for (let i = 0; i < 5; i += 1) {
      const result = await auth("POST", "/sign-in/email", {
        ...from,
        body: { email: `ip${i}@example.com`, password: "whatever123" },
      });
      expect(result.status).toBe(401);
    }
    const limited = await auth("POST", "/sign-up/email", {
      ...from,
      body: { email: "ip9@example.com", password: "whatever123", name: "x" },
    });
    expect(limited.status).toBe(429);
    expect(Object.keys(limited.json ?? {}).sort()).toEqual(ERROR_KEYS);
    expect(limited.json).toMatchObject({ errorCode: "RATE_LIMITED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another IP is unaffected.
    const other = await auth("POST", "/sign-in/email", {
      headers: { "x-linklens-client-key": "198.51.100.8" },
      body: { email: "ip0@example.com", password: "whatever123" },
    });
    expect(other.status).toBe(401);
  });

  it("the 4th attempt for one email is 429 whatever the IP (magic link and reset count too)", async () => {
    const email = "target@example.com";
    const paths = ["/sign-in/email", "/sign-in/magic-link", "/request-password-reset"];
    for (const [i, path] of paths.entries()) {
      const result = await auth("POST", path, {
        headers: { "x-linklens-client-key": `203.0.113.${i}` },
        body: { email, password: "whatever123" },
      });
      expect(result.status).not.toBe(429);
    }
    const limited = await auth("POST", "/sign-in/email", {
      headers: { "x-linklens-client-key": "203.0.113.99" },
      body: { email: "TARGET@example.com", password: "whatever123" },
    });
    expect(limited.status).toBe(429);
    expect(String(limited.json?.error)).toMatch(/email/);
  });
});
