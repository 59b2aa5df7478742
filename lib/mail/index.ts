import type { Config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { onShutdown } from "../shutdown";
import { exponentialBackoff, smtpTransport, startSender } from "./sender";

export { enqueueEmail, listOutbox } from "./outbox";

/**
 * Starts delivering the outbox when SMTP_URL is set (MAIL_FROM is then required). Without SMTP_URL the
 * rows stay in the outbox; owners read them in the app (Settings → Email).
 */
export function startMailDelivery(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "MAIL_RETRY_BASE_SECONDS">,
  db: Db,
): void {
  if (!config.SMTP_URL) {
    log.info("SMTP_URL is not set: emails stay in the outbox (owners see them in the app under Settings)");
    return;
  }
  if (!config.MAIL_FROM)
    throw new Error(
      "MAIL_FROM is required when SMTP_URL is set (the sender address, e.g. LinkLens <noreply@example.com>).",
    );
  const sender = startSender({
    db,
    transport: smtpTransport(config.SMTP_URL),
    from: config.MAIL_FROM,
    intervalMs: 5_000,
    backoffMs: exponentialBackoff(config.MAIL_RETRY_BASE_SECONDS * 1000),
    onError: (error) => log.warn({ err: error }, "email delivery pass failed"),
  });
  onShutdown("mail-sender", () => sender.stop());
}
