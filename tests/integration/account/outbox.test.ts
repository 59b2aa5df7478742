import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { outbox } from "@/lib/db/schema";
import { enqueueEmail } from "@/lib/mail/outbox";
import { deliverDue, smtpTransport, type SenderOptions } from "@/lib/mail/sender";
import { magicLinkEmail } from "@/lib/mail/templates";
import { BACKENDS, closeAll, useFreshDatabase } from "./harness";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(closeAll);

describe.each(BACKENDS)("email outbox and SMTP sender (%s)", (backend) => {
  let database: Database;
  let smtp: TestSmtpServer;
  let clock: number;
  let options: SenderOptions;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.stop());
  beforeEach(async () => {
    await database.db.delete(outbox);
    smtp.received.splice(0);
    clock = Date.parse("2030-01-01T00:00:00Z");
    options = {
      db: database.db,
      transport: smtpTransport(smtp.url),
      from: "LinkLens <noreply@linklens.test>",
      now: () => new Date(clock),
      maxAttempts: 3,
      backoffMs: () => 60_000,
    };
  });

  const rowOf = async (id: string) => (await database.db.select().from(outbox).where(eq(outbox.id, id)))[0];

  it("delivers a row once, with text and HTML parts, and marks it sent", async () => {
    const id = await enqueueEmail(database.db, {
      to: "Ada@Example.com",
      content: magicLinkEmail("http://localhost:3000/api/auth/magic-link/verify?token=abc"),
    });
    // Queued rows are due at their database creation time; move the clock past it.
    clock = Date.now() + 1000;
    expect(await deliverDue(options)).toEqual({ sent: 1, retried: 0, failed: 0, dropped: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail?.to && "text" in mail.to ? mail.to.text : "").toBe("ada@example.com");
    expect(mail?.subject).toBe("Your LinkLens sign-in link");
    expect(mail?.text).toContain("token=abc");
    expect(mail?.html).toContain("token=abc");
    expect(mail?.messageId).toBe(`<${id}@linklens.local>`);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1 });
    // A second pass sends nothing.
    expect(await deliverDue(options)).toEqual({ sent: 0, retried: 0, failed: 0, dropped: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("a server that refuses, then accepts: retried after the backoff, delivered exactly once", async () => {
    const id = await enqueueEmail(database.db, { to: "bob@example.com", content: magicLinkEmail("http://x/1") });
    clock = Date.now() + 1000;
    smtp.refuse(1, 451);
    expect(await deliverDue(options)).toEqual({ sent: 0, retried: 1, failed: 0, dropped: 0 });
    const after = await rowOf(id);
    expect(after).toMatchObject({ status: "pending", attempts: 1 });
    expect(after?.lastError).toMatch(/451/);
    // Not due yet: nothing happens.
    expect(await deliverDue(options)).toEqual({ sent: 0, retried: 0, failed: 0, dropped: 0 });
    clock += 60_000;
    expect(await deliverDue(options)).toEqual({ sent: 1, retried: 0, failed: 0, dropped: 0 });
    expect(await smtp.waitFor(1)).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("gives up after the last attempt, and at once on a permanent (5xx) refusal", async () => {
    const flaky = await enqueueEmail(database.db, { to: "c@example.com", content: magicLinkEmail("http://x/2") });
    clock = Date.now() + 1000;
    smtp.refuse(3, 421);
    for (let i = 0; i < 3; i += 1) {
      await deliverDue(options);
      clock += 60_000;
    }
    expect(await rowOf(flaky)).toMatchObject({ status: "failed", attempts: 3 });
    const bounced = await enqueueEmail(database.db, { to: "d@example.com", content: magicLinkEmail("http://x/3") });
    clock = Math.max(clock, Date.now() + 1000);
    smtp.refuse(1, 550);
    expect(await deliverDue(options)).toEqual({ sent: 0, retried: 0, failed: 1, dropped: 0 });
    expect(await rowOf(bounced)).toMatchObject({ status: "failed", attempts: 1 });
    expect(smtp.received).toHaveLength(0);
  });

  it("an unreachable server loses nothing: the row waits and is sent once the server is back", async () => {
    const id = await enqueueEmail(database.db, { to: "e@example.com", content: magicLinkEmail("http://x/4") });
    clock = Date.now() + 1000;
    const down = { ...options, transport: smtpTransport("smtp://127.0.0.1:1") };
    expect(await deliverDue(down)).toEqual({ sent: 0, retried: 1, failed: 0, dropped: 0 });
    expect((await rowOf(id))?.lastError).toMatch(/Could not reach the mail server/);
    clock += 60_000;
    expect(await deliverDue(options)).toEqual({ sent: 1, retried: 0, failed: 0, dropped: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("concurrent senders never claim the same row; a crashed sender's claim is taken over after its lease", async () => {
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        enqueueEmail(database.db, { to: `bulk${i}@example.com`, content: magicLinkEmail(`http://x/b${i}`) }),
      ),
    );
    clock = Date.now() + 1000;
    const results = await Promise.all([
      deliverDue({ ...options, batchSize: 5 }),
      deliverDue({ ...options, batchSize: 5 }),
      deliverDue({ ...options, batchSize: 5 }),
    ]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(12);
    await smtp.waitFor(12);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(12);
    for (const id of ids) expect((await rowOf(id))?.status).toBe("sent");

    // A sender claims a row and dies (its transport never returns): the row is claimed again after the lease.
    const orphan = await enqueueEmail(database.db, { to: "orphan@example.com", content: magicLinkEmail("http://x/o") });
    clock = Date.now() + 1000;
    void deliverDue({ ...options, leaseMs: 120_000, transport: () => new Promise<void>(() => {}) });
    await expect.poll(async () => (await rowOf(orphan))?.status).toBe("sending");
    expect(await deliverDue(options)).toEqual({ sent: 0, retried: 0, failed: 0, dropped: 0 });
    clock += 120_000;
    expect(await deliverDue(options)).toMatchObject({ sent: 1 });
    expect(await rowOf(orphan)).toMatchObject({ status: "sent", attempts: 2 });
  });
});
