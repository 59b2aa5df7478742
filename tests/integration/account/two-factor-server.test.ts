import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { ErrorSchema } from "@/lib/api/schemas";
import { startServer, type RunningServer } from "../../helpers/server";
import { startPostgres, type PostgresServer } from "../../helpers/postgres";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";
import { startUpstashBridge, type UpstashBridge } from "../../helpers/upstash-bridge";
import { parseTotpUri, totp, wrongCode } from "../../helpers/totp";

/**
 * Two-factor sign-in against the production build (`npm run build` first), on the embedded PGlite and on
 * PostgreSQL: enrolment, both first steps (password; the emailed link read from a real SMTP server) with and
 * without the code, a backup code twice, a trusted device and sign-out, the three emails through SMTP, a team
 * that requires it; and the wrong-code limit across two instances sharing PostgreSQL and Redis.
 */

const SECRET = "two-factor-secret-two-factor-secret-0123";
const PASSWORD = "correct horse battery";

/** A browser's cookie jar for one site: Set-Cookie lines in, a Cookie header out (expired ones dropped). */
class Jar {
  private readonly cookies = new Map<string, string>();
  constructor(from?: Jar) {
    for (const [name, value] of from?.cookies ?? []) this.cookies.set(name, value);
  }
  take(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const name = pair.slice(0, pair.indexOf("="));
      if (/max-age=0/i.test(line) || pair.endsWith("=")) this.cookies.delete(name);
      else this.cookies.set(name, pair);
    }
    return this;
  }
  has(name: string): boolean {
    return this.cookies.has(name);
  }
  header(): string {
    return [...this.cookies.values()].join("; ");
  }
}

/** Whether a response sets a live session cookie. */
const setsSession = (response: Response) =>
  response.headers
    .getSetCookie()
    .some((line) => /^better-auth\.session_token=[^;]+/.test(line) && !/max-age=0/i.test(line));

function client(server: RunningServer) {
  async function send(method: string, path: string, jar: Jar, body?: unknown) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(body === undefined ? {} : { "content-type": "application/json", origin: server.baseUrl }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    jar.take(response);
    const text = await response.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      json = null;
    }
    return { response, status: response.status, json, text };
  }
  return {
    send,
    post: (path: string, jar: Jar, body: unknown = {}) => send("POST", path, jar, body),
    get: (path: string, jar: Jar) => send("GET", path, jar),
    async signUp(email: string) {
      const jar = new Jar();
      const result = await send("POST", "/api/auth/sign-up/email", jar, { email, password: PASSWORD, name: "Two" });
      expect(result.status, result.text).toBe(200);
      return jar;
    },
    async enrol(jar: Jar) {
      const enabled = await send("POST", "/api/auth/two-factor/enable", jar, { password: PASSWORD });
      expect(enabled.status, enabled.text).toBe(200);
      const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
      const { key } = parseTotpUri(totpURI);
      const verified = await send("POST", "/api/auth/two-factor/verify-totp", jar, { code: totp(key) });
      expect(verified.status, verified.text).toBe(200);
      return { key, backupCodes };
    },
    async firstStep(email: string, jar = new Jar()) {
      const result = await send("POST", "/api/auth/sign-in/email", jar, { email, password: PASSWORD });
      return { ...result, jar };
    },
    meStatus: async (jar: Jar) => (await send("GET", "/api/account/me", jar)).status,
  };
}

describe.each(["pglite", "postgres"] as const)("two-factor sign-in on the production build (%s)", (backend) => {
  let smtp: TestSmtpServer;
  let postgres: PostgresServer | undefined;
  let server: RunningServer;
  let app: ReturnType<typeof client>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const database: Record<string, string> = {};
    if (backend === "postgres") {
      postgres = await startPostgres();
      database.DATABASE_URL = await postgres.createDatabase();
    }
    server = await startServer({
      ...database,
      BETTER_AUTH_SECRET: SECRET,
      SMTP_URL: smtp.url,
      MAIL_FROM: "LinkLens <noreply@linklens.test>",
      MAIL_RETRY_BASE_SECONDS: "1",
    });
    app = client(server);
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    await postgres?.stop();
  });

  /** The first email to `to` whose subject matches, once the outbox delivered it through SMTP. */
  async function mailTo(to: string, subject: RegExp): Promise<ParsedMail> {
    for (let count = 1; ; count += 1) {
      await smtp.waitFor(count, 60_000);
      const found = smtp.received.find(
        (mail) => mail.to && "text" in mail.to && mail.to.text === to && subject.test(mail.subject ?? ""),
      );
      if (found) return found;
    }
  }

  it("enrols, then both first steps give no session until the code; the emailed link is read from SMTP", async () => {
    const email = `both-${backend}@example.com`;
    const owner = await app.signUp(email);
    const { key } = await app.enrol(owner);
    const on = await mailTo(email, /^Two-factor sign-in is on/);
    expect(on.text).toContain("/app/settings#security");
    expect(String(on.html)).toContain("Open security settings");

    // Password: held back, then the code.
    const first = await app.firstStep(email);
    expect(first.json).toMatchObject({ twoFactorRedirect: true });
    expect(setsSession(first.response)).toBe(false);
    expect(await app.meStatus(first.jar)).toBe(401);
    const wrong = await app.post("/api/auth/two-factor/verify-totp", first.jar, { code: wrongCode(key) });
    expect(ErrorSchema.parse(wrong.json).errorCode).toBe("INVALID_CODE");
    const right = await app.post("/api/auth/two-factor/verify-totp", first.jar, { code: totp(key) });
    expect(right.status, right.text).toBe(200);
    expect(setsSession(right.response)).toBe(true);
    expect(await app.meStatus(first.jar)).toBe(200);

    // The emailed link: the browser lands on the second step without a session, the code finishes it.
    const asked = await app.post("/api/auth/sign-in/magic-link", new Jar(), { email, callbackURL: "/app/monitors" });
    expect(asked.status, asked.text).toBe(200);
    const mail = await mailTo(email, /sign-in link/);
    const link = /https?:\/\/\S+magic-link\/verify\S+/.exec(mail.text ?? "")?.[0] ?? "";
    const browser = new Jar();
    const followed = await app.get(link.replace(/^https?:\/\/[^/]+/, ""), browser);
    expect(followed.status, followed.text).toBe(302);
    expect(followed.response.headers.get("location")).toBe("/sign-in/two-factor?next=%2Fapp%2Fmonitors");
    expect(setsSession(followed.response)).toBe(false);
    expect(await app.meStatus(browser)).toBe(401);
    const page = await app.get("/sign-in/two-factor?next=%2Fapp%2Fmonitors", browser);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Two-factor sign-in");
    const done = await app.post("/api/auth/two-factor/verify-totp", browser, { code: totp(key) });
    expect(done.status, done.text).toBe(200);
    expect(await app.meStatus(browser)).toBe(200);
  });

  it("a backup code works once and is emailed; a trusted device skips the code until sign-out; turning off is emailed", async () => {
    const email = `codes-${backend}@example.com`;
    const { key, backupCodes } = await app.enrol(await app.signUp(email));
    const code = backupCodes[0] ?? "";
    const first = await app.firstStep(email);
    const used = await app.post("/api/auth/two-factor/verify-backup-code", first.jar, { code });
    expect(used.status, used.text).toBe(200);
    const again = await app.firstStep(email);
    const twice = await app.post("/api/auth/two-factor/verify-backup-code", again.jar, { code });
    expect(twice.status).toBe(401);
    expect(ErrorSchema.parse(twice.json).errorCode).toBe("INVALID_BACKUP_CODE");
    expect((await mailTo(email, /backup code was used/)).text).toMatch(/9 of yours are left/);

    const device = (await app.firstStep(email)).jar;
    const trusted = await app.post("/api/auth/two-factor/verify-totp", device, { code: totp(key), trustDevice: true });
    expect(trusted.status, trusted.text).toBe(200);
    expect(device.has("better-auth.trust_device")).toBe(true);
    const kept = new Jar(device);
    const skipped = await app.firstStep(email, device);
    expect(skipped.json).not.toHaveProperty("twoFactorRedirect");
    expect(setsSession(skipped.response)).toBe(true);
    expect((await app.post("/api/auth/sign-out", device)).status).toBe(200);
    expect(device.has("better-auth.trust_device")).toBe(false);
    // The cookie kept from before the sign-out no longer skips anything.
    const replayed = await app.firstStep(email, kept);
    expect(replayed.json).toMatchObject({ twoFactorRedirect: true });
    expect(setsSession(replayed.response)).toBe(false);

    const session = (await app.firstStep(email)).jar;
    await app.post("/api/auth/two-factor/verify-totp", session, { code: totp(key) });
    const off = await app.post("/api/auth/two-factor/disable", session, { password: PASSWORD });
    expect(off.status, off.text).toBe(200);
    expect((await mailTo(email, /^Two-factor sign-in is off/)).text).toMatch(/turned off/);
  });

  it("a team that requires it: 409 before the owner's factor, then members without it are refused and sent to enrol", async () => {
    const owner = await app.signUp(`team-${backend}@example.com`);
    const refused = await app.send("PATCH", "/api/account/organization", owner, { requireTwoFactor: true });
    expect(refused.status, refused.text).toBe(409);
    expect(ErrorSchema.parse(refused.json).errorCode).toBe("CONFLICT");
    await app.enrol(owner);
    const required = await app.send("PATCH", "/api/account/organization", owner, { requireTwoFactor: true });
    expect(required.status, required.text).toBe(200);

    // A second owner's view is the member's view: another account joins by invitation.
    const inviteeEmail = `team-member-${backend}@example.com`;
    const invited = await app.post("/api/account/invitations", owner, { email: inviteeEmail, role: "member" });
    expect(invited.status, invited.text).toBe(201);
    const invitation = await mailTo(inviteeEmail, /invited you/);
    const member = await app.signUp(inviteeEmail);
    const token = new URL(/https?:\/\/\S+invitations\/\S+/.exec(invitation.text ?? "")?.[0] ?? "").searchParams.get(
      "token",
    );
    const accepted = await app.post("/api/auth/organization/accept-invitation", member, {
      invitationId: (invited.json as { id: string }).id,
      token,
    });
    expect(accepted.status, accepted.text).toBe(200);
    const orgId = (required.json as { id: string }).id;
    expect((await app.send("PUT", "/api/account/active-organization", member, { organizationId: orgId })).status).toBe(
      200,
    );

    const monitors = await app.get("/api/account/monitors", member);
    expect(monitors.status).toBe(403);
    expect(ErrorSchema.parse(monitors.json)).toMatchObject({ errorCode: "TWO_FACTOR_REQUIRED" });
    const me = await app.get("/api/account/me", member);
    expect(me.json).toMatchObject({ user: { twoFactorEnabled: false }, organization: { requireTwoFactor: true } });
    // The app walks them to enrolment: a page of the team redirects to Settings → Security, which serves them.
    const page = await app.get("/app/monitors", member);
    expect([303, 307, 308]).toContain(page.status);
    expect(page.response.headers.get("location")).toMatch(/\/app\/settings\?twoFactor=required#security$/);
    const settings = await app.get("/app/settings?twoFactor=required", member);
    expect(settings.status).toBe(200);
    expect(settings.text).toContain("requires two-factor sign-in");

    await app.enrol(member);
    expect((await app.get("/api/account/monitors", member)).status).toBe(200);
  });
});

describe("the wrong-code limit across two instances sharing PostgreSQL and Redis", () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let bridge: UpstashBridge;
  let first: RunningServer;
  let second: RunningServer;

  beforeAll(async () => {
    postgres = await startPostgres();
    redis = await startRedisServer();
    bridge = await startUpstashBridge({ redisPort: redis.port });
    // As in tests/integration/limits.test.ts: a healthy Upstash call never times out into the in-process
    // store (which would split the count between the instances).
    const env = {
      DATABASE_URL: await postgres.createDatabase(),
      BETTER_AUTH_SECRET: SECRET,
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      RATE_LIMIT_STORE_TIMEOUT_MS: "60000",
      RATE_LIMIT_STORE_COOLDOWN_MS: "0",
    };
    first = await startServer(env);
    second = await startServer(env);
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await bridge?.close();
    await redis?.stop();
    await postgres?.stop();
  });

  /** The 15-minute bucket of Upstash's sliding window that `ms` falls in. */
  const bucketOf = (ms: number) => Math.floor(ms / 900_000);

  it("five wrong codes, sent to either instance, and the sixth code is 429 on both, the right one too", async () => {
    const one = client(first);
    const two = client(second);
    // Upstash's window weighs the bucket before (15-minute buckets from the epoch); a sequence that crossed
    // a bucket's end would count its first codes a little less. Such a run is repeated with a new user,
    // so the assertion never rests on where the clock happens to be.
    for (let attempt = 1; ; attempt += 1) {
      const email = `limit-${attempt}@example.com`;
      const { key, backupCodes } = await one.enrol(await one.signUp(email));
      const pending = (await one.firstStep(email)).jar;
      const started = Date.now();
      const statuses: number[] = [];
      const wrongs = [wrongCode(key), "wrong-code1", wrongCode(key), "wrong-code2", wrongCode(key)];
      for (const [index, code] of wrongs.entries()) {
        const app = index % 2 === 0 ? one : two;
        const path = code.startsWith("wrong-")
          ? "/api/auth/two-factor/verify-backup-code"
          : "/api/auth/two-factor/verify-totp";
        statuses.push((await app.post(path, pending, { code })).status);
      }
      const sixth = await two.post("/api/auth/two-factor/verify-totp", pending, { code: totp(key) });
      const seventh = await one.post("/api/auth/two-factor/verify-backup-code", pending, { code: backupCodes[0] });
      if (bucketOf(started) !== bucketOf(Date.now()) && attempt < 3) continue;
      expect(statuses, first.output() + second.output()).toEqual([401, 401, 401, 401, 401]);
      for (const refused of [sixth, seventh]) {
        expect(refused.status, refused.text).toBe(429);
        expect(ErrorSchema.parse(refused.json).errorCode).toBe("RATE_LIMITED");
        expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(bridge.commands.length).toBeGreaterThan(0);
      expect(await one.meStatus(pending)).toBe(401);
      break;
    }
  });
});
