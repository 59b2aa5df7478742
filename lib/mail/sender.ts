import { and, eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db } from "../db/client";
import { membershipOf } from "../db/membership";
import { outbox } from "../db/schema";
import { readAttachment, type Attachment } from "./attachments";

/**
 * Delivers the outbox. Each pass claims due rows with `FOR UPDATE SKIP LOCKED` (so instances sharing
 * PostgreSQL never claim the same row) and a lease (so a crashed sender's rows are claimed again once
 * the lease runs out), sends them, and marks each `sent`, or `pending` with a later `nextAttemptAt`
 * (exponential backoff), or `failed` after the last attempt or a permanent (5xx) refusal. Marks are
 * conditional on the claim (status and attempt count), so a sender whose lease was taken over cannot
 * overwrite the newer outcome. Every row keeps one Message-ID across attempts.
 */

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** Files sent with it (a scheduled report's PDF). */
  attachments?: Attachment[];
}

/** Sends one message; throws on refusal. `responseCode` (SMTP) ≥ 500 is permanent. */
export type Transport = (message: OutgoingMessage) => Promise<void>;

export interface SenderOptions {
  db: Db;
  transport: Transport;
  from: string;
  /** Injectable clock (tests move time instead of sleeping). */
  now?: () => Date;
  maxAttempts?: number;
  /** Delay before attempt n+1 after n failed ones. */
  backoffMs?: (attempts: number) => number;
  leaseMs?: number;
  batchSize?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
/** `baseMs`, twice that, four times, … capped at 1 h. */
export const exponentialBackoff = (baseMs: number) => (attempts: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);

/** 30 s, 1 min, 2 min, … capped at 1 h: about 2 hours in all before a row is `failed`. */
export const defaultBackoffMs = exponentialBackoff(30_000);

export interface PassResult {
  sent: number;
  retried: number;
  failed: number;
  /** Alert emails not sent because the recipient left the organization. */
  dropped: number;
}

interface ClaimedRow {
  id: string;
  recipient: string;
  recipient_user_id: string | null;
  organization_id: string | null;
  headers: Record<string, string> | string | null;
  subject: string;
  text: string;
  html: string;
  message_id: string;
  attempts: number;
  attachment_id: string | null;
}

/** One delivery pass over due rows. */
export async function deliverDue(options: SenderOptions): Promise<PassResult> {
  const now = (options.now ?? (() => new Date()))();
  const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? 5 * 60_000));
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const claimed = await options.db.execute<Record<string, unknown>>(sql`
    UPDATE ${outbox} SET status = 'sending', lease_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${outbox}
      WHERE (status = 'pending' AND next_attempt_at <= ${now.toISOString()}::timestamptz)
         OR (status = 'sending' AND lease_until <= ${now.toISOString()}::timestamptz)
      ORDER BY next_attempt_at, id
      LIMIT ${options.batchSize ?? 20}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, recipient, recipient_user_id, organization_id, headers, subject, text, html, message_id, attempts, attachment_id`);
  const rows = (claimed as unknown as { rows: ClaimedRow[] }).rows;
  const result: PassResult = { sent: 0, retried: 0, failed: 0, dropped: 0 };
  for (const row of rows) {
    const mine = and(eq(outbox.id, row.id), eq(outbox.status, "sending"), eq(outbox.attempts, row.attempts));
    if (
      row.recipient_user_id &&
      row.organization_id &&
      !(await membershipOf(options.db, row.recipient_user_id, row.organization_id))
    ) {
      // Alerts are for members: one removed while the email waited (SMTP down) gets nothing more.
      await options.db
        .update(outbox)
        .set({ status: "dropped", leaseUntil: null, lastError: "The recipient is no longer a member of the team." })
        .where(mine);
      result.dropped += 1;
      continue;
    }
    try {
      const headers =
        typeof row.headers === "string"
          ? (JSON.parse(row.headers) as Record<string, string>)
          : (row.headers ?? undefined);
      const attachment = row.attachment_id ? await readAttachment(options.db, row.attachment_id) : null;
      await options.transport({
        from: options.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html,
        messageId: row.message_id,
        headers,
        attachments: attachment ? [attachment] : undefined,
      });
      await options.db
        .update(outbox)
        .set({ status: "sent", sentAt: now, leaseUntil: null, lastError: null })
        .where(mine);
      result.sent += 1;
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const permanent = typeof code === "number" && code >= 500;
      const message = describeSmtpError(error);
      if (permanent || row.attempts >= maxAttempts) {
        await options.db.update(outbox).set({ status: "failed", leaseUntil: null, lastError: message }).where(mine);
        result.failed += 1;
      } else {
        await options.db
          .update(outbox)
          .set({
            status: "pending",
            leaseUntil: null,
            lastError: message,
            nextAttemptAt: new Date(now.getTime() + backoff(row.attempts)),
          })
          .where(mine);
        result.retried += 1;
      }
    }
  }
  return result;
}

/** What the server said, without our internals (shown to owners in the app). */
function describeSmtpError(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; code?: string };
  if (e.responseCode && e.response) return `SMTP ${e.responseCode}: ${e.response.slice(0, 300)}`;
  if (e.code) return `Could not reach the mail server (${e.code}).`;
  return "The mail server refused the message.";
}

/** A nodemailer transport for SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(url: string): Transport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return async (message) => {
    await transporter.sendMail({ ...message, messageId: message.messageId });
  };
}

export interface RunningSender {
  stop: () => Promise<void>;
  /** Runs a pass now (after the running one). */
  kick: () => Promise<PassResult>;
}

/** Runs a delivery pass every `intervalMs` (one at a time) until stopped. */
export function startSender(
  options: SenderOptions & { intervalMs?: number; onError?: (error: unknown) => void },
): RunningSender {
  let running: Promise<PassResult> = Promise.resolve({ sent: 0, retried: 0, failed: 0, dropped: 0 });
  let stopped = false;
  const pass = () => {
    running = running.then(
      () => (stopped ? { sent: 0, retried: 0, failed: 0, dropped: 0 } : deliverDue(options)),
      () => deliverDue(options),
    );
    running.catch((error: unknown) => options.onError?.(error));
    return running;
  };
  const timer = setInterval(() => void pass(), options.intervalMs ?? 5_000);
  timer.unref();
  return {
    kick: pass,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
