import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { startPostgres, type PostgresServer } from "../../helpers/postgres";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server";
import { startUpstashBridge, type UpstashBridge } from "../../helpers/upstash-bridge";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";

/**
 * The production server (`npm run build` first) with accounts: migrations before listen, the embedded
 * database's lock and secret, BETTER_AUTH_SECRET with PostgreSQL, and two instances sharing PostgreSQL.
 */

const SECRET = "shared-secret-shared-secret-shared-secret";

async function post(server: RunningServer, pathname: string, body: unknown, cookie?: string) {
  const response = await fetch(`${server.baseUrl}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    json: (await response.json().catch(() => null)) as Record<string, unknown> | null,
    setCookie: response.headers.getSetCookie(),
  };
}

async function get(server: RunningServer, pathname: string, cookie: string) {
  const response = await fetch(`${server.baseUrl}${pathname}`, { headers: { cookie } });
  return { status: response.status, json: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

const cookieOf = (setCookie: string[]) => setCookie.map((line) => line.split(";")[0]).join("; ");

async function signUp(server: RunningServer, email: string) {
  const result = await post(server, "/api/auth/sign-up/email", {
    email,
    password: "correct horse battery",
    name: email.split("@")[0],
  });
  expect(result.status, JSON.stringify(result.json)).toBe(200);
  return { cookie: cookieOf(result.setCookie), setCookie: result.setCookie };
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("embedded database (no configuration)", () => {
  let dataDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linklens-embedded-"));
    tempDirs.push(dataDir);
    server = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("migrates before listening, generates the auth secret with mode 0600, and serves sign-up", async () => {
    const stat = fs.statSync(path.join(dataDir, "auth-secret"));
    expect(stat.mode & 0o777).toBe(0o600);
    const { cookie, setCookie } = await signUp(server, "solo@example.com");
    const session = setCookie.find((line) => line.startsWith("better-auth.session_token="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/);
    const me = await get(server, "/api/account/me", cookie);
    expect(me.json).toMatchObject({ user: { email: "solo@example.com" }, role: "owner" });
  });

  it("a second process on the same data directory refuses to start with a clear message", async () => {
    const error = await startServer({ DATA_DIR: dataDir }).then(
      async (second) => {
        await second.stop();
        return null;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited early \(1\)/);
    expect(error?.message).toMatch(/in use by another LinkLens process/);
    // The first one is unaffected.
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200);
  });

  it("sessions survive a restart (the generated secret is kept)", async () => {
    const { cookie } = await signUp(server, "restart@example.com");
    await server.stop();
    server = await startServer({ DATA_DIR: dataDir });
    const me = await get(server, "/api/account/me", cookie);
    expect(me.status).toBe(200);
  });
});

describe("/api/auth on the production server: clients without Origin, https behind a proxy, emailed links", () => {
  let smtp: TestSmtpServer;
  let server: RunningServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // No SITE_URL: one trusted proxy says how the site is served.
    server = await startServer({
      TRUSTED_PROXY_HOPS: "1",
      SMTP_URL: smtp.url,
      MAIL_FROM: "LinkLens <links@example.com>",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** The first email received whose text matches (emails leave the outbox in the background). */
  async function mailMatching(pattern: RegExp) {
    for (let count = 1; ; count += 1) {
      await smtp.waitFor(count, 30_000);
      const found = smtp.received.find((mail) => pattern.test(mail.text ?? ""));
      if (found) return found;
    }
  }

  /** A request as a non-browser client sends it: no Origin, no Sec-Fetch-* headers. */
  const bare = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("a client that sends no Origin signs up, updates its profile and signs out with its cookie", async () => {
    const up = await bare("/api/auth/sign-up/email", {
      email: "script@example.com",
      password: "correct horse battery",
      name: "Script",
    });
    expect(up.status, await up.clone().text()).toBe(200);
    const cookie = cookieOf(up.headers.getSetCookie());
    const updated = await bare("/api/auth/update-user", { name: "Scripted" }, { cookie });
    expect(updated.status, await updated.clone().text()).toBe(200);
    expect((await get(server, "/api/account/me", cookie)).json).toMatchObject({ user: { name: "Scripted" } });
    // No body, no Content-Type: what `curl -X POST` or a bare fetch sends.
    const out = await fetch(`${server.baseUrl}/api/auth/sign-out`, {
      method: "POST",
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(out.status, await out.clone().text()).toBe(200);
    expect((await get(server, "/api/account/me", cookie)).status).toBe(401);
    const crossSite = await bare(
      "/api/auth/sign-in/email",
      { email: "script@example.com", password: "correct horse battery" },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ errorCode: "INVALID_ORIGIN" });
  });

  it("served over https through the proxy, the session cookie is Secure and works over https", async () => {
    const https = { "x-forwarded-proto": "https", "x-forwarded-host": "links.example.com" };
    const signIn = await bare(
      "/api/auth/sign-in/email",
      { email: "script@example.com", password: "correct horse battery" },
      { ...https, origin: "https://links.example.com" },
    );
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const session = signIn.headers.getSetCookie().find((line) => line.includes("session_token="));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    const me = await fetch(`${server.baseUrl}/api/account/me`, {
      headers: { ...https, cookie: cookieOf(signIn.headers.getSetCookie()) },
    });
    expect(me.status).toBe(200);
  });

  it("an emailed sign-in link uses the listen address, not a host the request named", async () => {
    const asked = await bare(
      "/api/auth/sign-in/magic-link",
      { email: "script@example.com", callbackURL: "/app" },
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    );
    expect(asked.status, await asked.clone().text()).toBe(200);
    const mail = await mailMatching(/magic-link\/verify/);
    const link = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")?.[0] ?? "about:blank");
    expect(link.origin).toBe(server.baseUrl);
    // Followed from the browser's host, it signs in there and returns there.
    const followed = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { redirect: "manual" });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(`${server.baseUrl}/app`);
    expect((await get(server, "/api/account/me", cookieOf(followed.headers.getSetCookie()))).status).toBe(200);
  });

  it("says once, in its own words, that SITE_URL is not set (the http and https auth instances both started)", () => {
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes("SITE_URL is not set"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ level: 40, component: "auth" });
    expect(server.output()).not.toMatch(/BETTER_AUTH_URL/);
  });
});

describe("PostgreSQL", () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  it("refuses to start without BETTER_AUTH_SECRET, naming it", async () => {
    const url = await postgres.createDatabase();
    const error = await startServer({ DATABASE_URL: url, BETTER_AUTH_SECRET: "" }).then(
      async (s) => {
        await s.stop();
        return null;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited early \(1\)/);
    expect(error?.message).toMatch(/BETTER_AUTH_SECRET is required when DATABASE_URL is set/);
  });

  it("two instances (one PostgreSQL, one Redis) share sessions, invitations and sign-in limits", async () => {
    const url = await postgres.createDatabase();
    const redis: RedisServer = await startRedisServer();
    const bridge: UpstashBridge = await startUpstashBridge({ redisPort: redis.port });
    const env = {
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: SECRET,
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      AUTH_IP_RATE_LIMIT_PER_15_MIN: "5",
    };
    // Started together: the migration lock makes them take turns.
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const owner = await signUp(a, "owner@example.com");
      const onB = await get(b, "/api/account/me", owner.cookie);
      expect(onB.status).toBe(200);
      expect(onB.json).toMatchObject({ user: { email: "owner@example.com" }, role: "owner" });

      const invited = await post(
        a,
        "/api/account/invitations",
        { email: "guest@example.com", role: "viewer" },
        owner.cookie,
      );
      expect(invited.status, JSON.stringify(invited.json)).toBe(201);
      const guest = await signUp(b, "guest@example.com");
      // The id alone is not enough for an unconfirmed address.
      const byId = await post(
        b,
        "/api/auth/organization/accept-invitation",
        { invitationId: invited.json?.id },
        guest.cookie,
      );
      expect(byId.status, JSON.stringify(byId.json)).toBe(403);
      // No SMTP here: the owner reads the invitation in the outbox and passes the link on, without its
      // token (which would confirm the guest's address: only the guest's own mailbox may).
      const outbox = await get(a, "/api/account/outbox", owner.cookie);
      const email = (outbox.json as { items: Array<{ kind: string; recipient: string; text: string }> }).items.find(
        (item) => item.kind === "invitation" && item.recipient === "guest@example.com",
      );
      const link = new URL(/https?:\/\/\S+/.exec(email?.text ?? "")?.[0] ?? "http://missing/");
      expect(link.pathname).toBe(`/app/invitations/${String(invited.json?.id)}`);
      expect(link.searchParams.has("token")).toBe(false);
      // Followed before signing in, the link's page sends the visitor to sign in (or up) and back.
      const page = await fetch(`${b.baseUrl}${link.pathname}${link.search}`, { redirect: "manual" });
      expect(page.status).toBeGreaterThanOrEqual(300);
      expect(new URL(page.headers.get("location") ?? "", b.baseUrl).searchParams.get("next")).toBe(
        `${link.pathname}${link.search}`,
      );
      // The guest confirms the address with the sign-up email, read in the guest's own outbox (on A: one database).
      const own = await get(a, "/api/account/outbox", guest.cookie);
      const confirmation = (own.json as { items: Array<{ kind: string; text: string }> }).items.find(
        (item) => item.kind === "verify_email",
      );
      const verify = /https?:\/\/\S+/.exec(confirmation?.text ?? "")?.[0] ?? "http://missing/";
      const followed = await fetch(`${b.baseUrl}${new URL(verify).pathname}${new URL(verify).search}`, {
        redirect: "manual",
      });
      expect(followed.status).toBeLessThan(400);
      const accepted = await post(
        b,
        "/api/auth/organization/accept-invitation",
        { invitationId: invited.json?.id },
        guest.cookie,
      );
      expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);

      const members = await get(a, "/api/account/members", owner.cookie);
      const emails = (members.json as { items: Array<{ user: { email: string }; role: string }> }).items.map(
        (m) => `${m.user.email}:${m.role}`,
      );
      expect(emails).toEqual(["owner@example.com:owner", "guest@example.com:viewer"]);
      // The viewer, switched to the shared team on A, reads it and cannot invite.
      const switched = await fetch(`${a.baseUrl}/api/account/active-organization`, {
        method: "PUT",
        headers: { "content-type": "application/json", origin: a.baseUrl, cookie: guest.cookie },
        body: JSON.stringify({ organizationId: (onB.json as { organization: { id: string } }).organization.id }),
      });
      expect(switched.status).toBe(200);
      const forbidden = await post(
        a,
        "/api/account/invitations",
        { email: "x@example.com", role: "viewer" },
        guest.cookie,
      );
      expect(forbidden.status).toBe(403);
      expect(forbidden.json).toMatchObject({ errorCode: "FORBIDDEN" });

      // The sign-in limit is one window for both instances: two sign-ups and three failed sign-ins
      // (A, B, A) use this IP's 5 attempts, so the next one is refused on B too.
      const statuses: number[] = [];
      for (const server of [a, b, a, b]) {
        statuses.push(
          (await post(server, "/api/auth/sign-in/email", { email: "nobody@example.com", password: "wrong password" }))
            .status,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await bridge.close();
      await redis.stop();
    }
  });
});
