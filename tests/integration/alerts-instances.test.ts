import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "pg";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { startServer, type RunningServer } from "./../helpers/server";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

/**
 * Exactly once, nothing lost, across instances (production build): two servers on one PostgreSQL, both
 * running the scheduler and the email sender, and an SMTP server that refuses everything until the
 * test has made every email happen (a switch, not a clock: a loaded machine only makes it take longer). A tracked link removed from a fixture page is confirmed missing by checks on both
 * instances; every email the team should get (invitation, address confirmations, the alerts) arrives
 * once, after the mail server comes back.
 */

const SECRET = "shared-secret-shared-secret-shared-secret";
let postgres: PostgresServer;
let site: FixtureSite;
let smtp: TestSmtpServer;
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let db: Client;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  site = await startFixtureSite();
  smtp = await startSmtpServer();
  const env = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    SMTP_URL: smtp.url,
    MAIL_FROM: "LinkLens <alerts@linklens.test>",
    // Retries 1 s, 2 s, 4 s, 8 s … after a refusal, so the test waits seconds, not the production minutes.
    MAIL_RETRY_BASE_SECONDS: "1",
    MONITOR_POLL_SECONDS: "1",
    LINK_CHECK_TIMEOUT_MS: "2000",
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
}, 240_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp?.stop();
  await site?.close();
  await postgres?.stop();
});

const page = (body: string) => `<!doctype html><html><head><title>Post</title></head><body>${body}</body></html>`;

async function json(server: RunningServer, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, text };
}

async function signUp(server: RunningServer, email: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email, password: "correct horse battery", name: email.split("@")[0] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Follows the address-confirmation link of the outbox (the mail server is refusing, so the test reads the row). */
async function confirmAddress(server: RunningServer, email: string): Promise<void> {
  const { rows } = await db.query<{ text: string }>(
    "SELECT text FROM email_outbox WHERE recipient = $1 AND kind = 'verify_email' ORDER BY created_at DESC LIMIT 1",
    [email],
  );
  const link = /https?:\/\/\S+/.exec(rows[0]?.text ?? "")?.[0];
  expect(link).toBeTruthy();
  const url = new URL(link ?? "");
  const response = await fetch(`${server.baseUrl}${url.pathname}${url.search}`, { redirect: "manual" });
  expect(response.status).toBeLessThan(400);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("alert emails across two instances with the mail server down for a while", () => {
  it("every expected email arrives once, after SMTP comes back", { timeout: 240_000 }, async () => {
    if (!a || !b) throw new Error("servers did not start");
    const [serverA, serverB] = [a, b];
    smtp.refuseUntilAccepting();

    // A team of two: the owner signs up on A and invites a member, who signs up and accepts on B.
    const ownerEmail = "owner@team.example";
    const memberEmail = "member@team.example";
    const owner = await signUp(serverA, ownerEmail);
    const invited = await json(serverA, "POST", "/api/account/invitations", owner, {
      email: memberEmail,
      role: "member",
    });
    expect(invited.status, invited.text).toBe(201);
    const member = await signUp(serverB, memberEmail);
    await confirmAddress(serverB, memberEmail);
    const accepted = await json(serverB, "POST", "/api/auth/organization/accept-invitation", member, {
      invitationId: invited.body?.id,
    });
    expect(accepted.status, accepted.text).toBe(200);
    const organizationId = (await json(serverA, "GET", "/api/account/me", owner)).body?.organization as { id: string };
    expect(
      (await json(serverB, "PUT", "/api/account/active-organization", member, { organizationId: organizationId.id }))
        .status,
    ).toBe(200);

    // A monitored placement; the schedulers check the new monitor at once (whichever instance gets the job).
    const target = site.url("/instances/landing");
    site.setPage("/instances/landing", { body: page("landing") });
    site.setPage("/instances/post", { body: page(`<p>We recommend <a href="${target}">Team Example</a>.</p>`) });
    const created = await json(serverA, "POST", "/api/account/monitors", owner, {
      url: site.url("/instances/post"),
      links: [{ target }],
    });
    expect(created.status, created.text).toBe(201);
    const monitorId = String(created.body?.id);
    await until("the first scheduled check", async () => {
      const monitor = (await json(serverB, "GET", `/api/account/monitors/${monitorId}`, member)).body as {
        links: Array<{ state: string }>;
      } | null;
      return monitor?.links[0]?.state === "live" ? true : undefined;
    });

    // The link is removed; a check on each instance confirms it.
    site.setPage("/instances/post", { body: page("<p>This post was edited.</p>") });
    const first = await json(serverB, "POST", `/api/account/monitors/${monitorId}/check`, member);
    expect(first.status, first.text).toBe(200);
    const second = await json(serverA, "POST", `/api/account/monitors/${monitorId}/check`, owner);
    expect(second.status, second.text).toBe(200);
    expect((second.body?.links as Array<{ state: string }>)[0]?.state).toBe("missing");
    // Nothing has been accepted yet; the senders have been trying (and retry with backoff).
    expect(smtp.received).toHaveLength(0);
    await until("the senders to try the refusing server", async () => (smtp.refused > 0 ? true : undefined));
    smtp.acceptAgain();

    const subject = "Link removed: 127.0.0.1/instances/landing on 127.0.0.1/instances/post";
    const expected = [
      [ownerEmail, "Confirm your LinkLens email address"],
      [ownerEmail, subject],
      [memberEmail, `owner invited you to owner's team on LinkLens`],
      [memberEmail, "Confirm your LinkLens email address"],
      [memberEmail, subject],
    ].map(([to, title]) => `${to} | ${title}`);
    const seen = () =>
      smtp.received.map((mail) => `${mail.to && "text" in mail.to ? mail.to.text : "?"} | ${mail.subject ?? ""}`);
    await until(
      "every expected email",
      async () => (expected.every((line) => seen().includes(line)) ? true : undefined),
      120_000,
    );
    // Two senders keep polling; give them a few more passes to send anything twice.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(seen().sort()).toEqual([...expected].sort());

    // They went out after the refusals, on retries.
    const { rows } = await db.query<{ status: string; attempts: number }>("SELECT status, attempts FROM email_outbox");
    expect(rows.every((row) => row.status === "sent")).toBe(true);
    expect(Math.max(...rows.map((row) => row.attempts))).toBeGreaterThan(1);
    const deliveries = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM alert_delivery");
    expect(deliveries.rows[0]?.n).toBe(2);
  });
});
