import { listenOrigin, type Config } from "../config";
import { resolveAuthSecret } from "../db/secret";
import { signUnsubscribeToken, type UnsubscribeTarget } from "./tokens";

/**
 * Absolute links in scheduled report emails and their confirmation emails. Both are written without a
 * request to take an origin from (a tick of the scheduler, or for a third party's address), so they use
 * SITE_URL (set it, https, in production: RFC 8058 wants an https List-Unsubscribe) or the listen address.
 * Every token travels as `?token=`, which every log line redacts (lib/secret-paths.ts) and the owner's
 * view of the outbox hides (lib/mail/redact.ts): these links act for their recipient.
 */
export interface ReportLinks {
  /** The page that asks the recipient to confirm (a GET shows, its form POSTs). */
  confirm(token: string): string;
  /** The page that offers to unsubscribe (a GET shows, its form POSTs). */
  unsubscribe(target: UnsubscribeTarget): string;
  /** RFC 8058 one-click endpoint for List-Unsubscribe (a mail client POSTs to it). */
  oneClick(target: UnsubscribeTarget): string;
  /** The client report itself (/r/{token}). */
  report(token: string): string;
}

export function reportLinks(origin: string, secret: string): ReportLinks {
  const base = origin.replace(/\/+$/, "");
  return {
    confirm: (token) => `${base}/report-emails/confirm?token=${encodeURIComponent(token)}`,
    unsubscribe: (target) => `${base}/report-emails/unsubscribe?token=${signUnsubscribeToken(secret, target)}`,
    oneClick: (target) => `${base}/api/report-emails/unsubscribe?token=${signUnsubscribeToken(secret, target)}`,
    report: (token) => `${base}/r/${token}`,
  };
}

/** The links of a process with this configuration (SITE_URL or the listen address, and the auth secret). */
export function configuredReportLinks(config: Config): ReportLinks {
  return reportLinks(config.SITE_URL ?? listenOrigin(config), resolveAuthSecret(config));
}

/** The headers that give mail clients a one-click unsubscribe button (RFC 2369 + RFC 8058). */
export function unsubscribeHeaders(links: ReportLinks, target: UnsubscribeTarget): Record<string, string> {
  return { "List-Unsubscribe": `<${links.oneClick(target)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
