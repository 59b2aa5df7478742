import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "pg";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { VERDICT_TARGET_PATH } from "@/scripts/lib/fixture-verdict";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

/**
 * verdict_changed across two instances on one PostgreSQL (production build): a placement whose page
 * changes under it (hidden by CSS, then blocked by robots.txt's rules for the page's path, then fine
 * again, then removed) is checked by both instances in turn. Each change of the verdict's value is one
 * event, written by the check that saw it, never twice; a link that went missing is reported once, as
 * link_missing; and the emails say what changed in words.
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
    MAIL_RETRY_BASE_SECONDS: "1",
    // Every check is the test's ("Check now"), alternating between the instances.
    MONITOR_SCHEDULER: "off",
    LINK_CHECK_TIMEOUT_MS: "3000",
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

async function api(server: RunningServer, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
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

const page = (link: string, head = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Review</title>${head}</head><body><main><p>We recommend ${link}.</p></main></body></html>`;

describe("verdict_changed on two instances sharing PostgreSQL", () => {
  it(
    "one event per change of value, from the check that saw it; none beside link_missing; emails in words",
    { timeout: 240_000 },
    async () => {
      if (!a || !b) throw new Error("servers did not start");
      const servers = [a, b];
      const signUp = await fetch(`${a.baseUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: a.baseUrl },
        body: JSON.stringify({
          email: "owner@verdict-events.example",
          password: "correct horse battery",
          name: "Owner",
        }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");

      const target = site.url(VERDICT_TARGET_PATH);
      const link = `<a href="${VERDICT_TARGET_PATH}">our partner</a>`;
      site.setPage("/events/review", { body: page(link) });
      const created = await api(a, "POST", "/api/account/monitors", cookie, {
        url: site.url("/events/review"),
        links: [{ target }],
      });
      expect(created.status, created.text).toBe(201);
      const monitorId = String(created.json?.id);
      let turn = 0;
      const check = async () => {
        const server = servers[turn++ % 2] as RunningServer;
        const checked = await api(server, "POST", `/api/account/monitors/${monitorId}/check`, cookie);
        expect(checked.status, checked.text).toBe(200);
        return (
          checked.json?.links as Array<{ state: string; verdict: { value: string; reasons: string[] } | null }>
        )[0];
      };

      // The first verdict is not a change.
      expect(await check()).toMatchObject({ state: "live", verdict: { value: "counts", reasons: [] } });
      // Hidden by CSS: a change at once (no confirmation for a link that is there).
      site.setPage("/events/review", { body: page(`<span style="display:none">${link}</span>`) });
      expect((await check())?.verdict).toEqual({ value: "does_not_count", reasons: ["hidden"] });
      // Still hidden, and now in a footer too: the reasons change, the value does not (no event).
      site.setPage("/events/review", {
        body: `<!doctype html><title>Review</title><main>text</main><footer><span style="display:none">${link}</span></footer>`,
      });
      expect((await check())?.verdict).toEqual({ value: "does_not_count", reasons: ["hidden", "boilerplate_region"] });
      // Visible again, in the text: counts.
      site.setPage("/events/review", { body: page(link) });
      expect((await check())?.verdict).toEqual({ value: "counts", reasons: [] });
      // Added by script only: at risk.
      site.setPage("/events/review", {
        body: page(
          `<span id="slot"></span><script>window.addEventListener("load", () => { document.getElementById("slot").innerHTML = ${JSON.stringify(link)}; });</script>`,
        ),
      });
      expect((await check())?.verdict).toEqual({ value: "at_risk", reasons: ["script_only"] });
      // Removed: a first miss keeps the verdict; the confirmed loss is link_missing, not also verdict_changed.
      site.setPage("/events/review", { body: page("nobody") });
      expect((await check())?.verdict).toEqual({ value: "at_risk", reasons: ["script_only"] });
      expect(await check()).toMatchObject({
        state: "missing",
        verdict: { value: "does_not_count", reasons: ["missing"] },
      });

      const { rows } = await db.query<{ type: string; before: unknown; after: unknown; check_id: string | null }>(
        "SELECT type, before, after, check_id FROM alert_event WHERE monitor_id = $1 ORDER BY created_at, id",
        [monitorId],
      );
      expect(rows.map((row) => row.type)).toEqual([
        "verdict_changed",
        "verdict_changed",
        "verdict_changed",
        "link_missing",
      ]);
      expect(rows.slice(0, 3).map((row) => [row.before, row.after])).toEqual([
        [
          { value: "counts", reasons: [] },
          { value: "does_not_count", reasons: ["hidden"] },
        ],
        [
          { value: "does_not_count", reasons: ["hidden", "boilerplate_region"] },
          { value: "counts", reasons: [] },
        ],
        [
          { value: "counts", reasons: [] },
          { value: "at_risk", reasons: ["script_only"] },
        ],
      ]);
      // Each written in the transaction of the check that saw it: one check each, checks of both instances.
      const checks = new Set(rows.map((row) => row.check_id));
      expect(checks.size).toBe(4);
      const { rows: checkRows } = await db.query<{ id: string }>("SELECT id FROM monitor_check WHERE id = ANY($1)", [
        [...checks],
      ]);
      expect(checkRows).toHaveLength(4);

      // The emails say what changed, in words, once each.
      const subjects = [
        "Link hidden by CSS: 127.0.0.1/p/verdict-target on 127.0.0.1/events/review",
        "Link counts again: 127.0.0.1/p/verdict-target on 127.0.0.1/events/review",
        "Link only present after JavaScript: 127.0.0.1/p/verdict-target on 127.0.0.1/events/review",
        "Link removed: 127.0.0.1/p/verdict-target on 127.0.0.1/events/review",
      ];
      await until("the alert emails", async () =>
        subjects.every((subject) => smtp.received.some((mail) => mail.subject === subject)) ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const alerts = smtp.received.filter((mail) => subjects.includes(mail.subject ?? ""));
      expect(alerts.map((mail) => mail.subject).sort()).toEqual([...subjects].sort());
      const hidden = alerts.find((mail) => mail.subject === subjects[0]);
      expect(hidden?.text).toContain("went from “Counts” to “Doesn't count”. Now: Link hidden by CSS.");
      expect(hidden?.html).toContain("Link hidden by CSS");
    },
  );
});
