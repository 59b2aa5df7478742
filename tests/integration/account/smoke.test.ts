import { afterAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import { BACKENDS, call, closeAll, signUp, useFreshDatabase } from "./harness";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(closeAll);

describe.each(BACKENDS)("smoke (%s)", (backend) => {
  it("signs up and reads /me", async () => {
    await useFreshDatabase(backend);
    const cookie = await signUp("ada@example.com");
    const result = await call(me, "GET", "/api/account/me", { cookie });
    expect(result.status, result.text).toBe(200);
    expect(result.json).toMatchObject({ user: { email: "ada@example.com" }, role: "owner" });
  });
});
