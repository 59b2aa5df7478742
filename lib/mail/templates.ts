import { escapeHtml } from "./html";

/**
 * Email templates: every email has a plain-text and an HTML part. Values are escaped for HTML; links
 * are absolute URLs built by the caller. Alert emails (lib/alerts/email.ts) use the `html` tag of
 * ./html.ts, which escapes by default.
 */

export interface EmailContent {
  kind:
    | "magic_link"
    | "password_reset"
    | "verify_email"
    | "invitation"
    | "alert"
    | "digest"
    | "webhook_disabled"
    | "two_factor_enabled"
    | "two_factor_disabled"
    | "backup_code_used"
    | "report_consent"
    | "report";
  subject: string;
  text: string;
  html: string;
}

function layout(title: string, paragraphs: string[], action: { label: string; url: string }, footer: string): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:12px;color:#64748b;word-break:break-all">${escapeHtml(action.url)}</p>
<p style="font-size:12px;color:#64748b">${escapeHtml(footer)}</p></div></body></html>`;
}

/** An email of one action: paragraphs, a button (with its URL written out below it) and a footer. */
export function email(
  kind: EmailContent["kind"],
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
  footer: string,
): EmailContent {
  const text = `${paragraphs.join("\n\n")}\n\n${action.label}: ${action.url}\n\n${footer}\n`;
  return { kind, subject, text, html: layout(subject, paragraphs, action, footer) };
}

export function magicLinkEmail(url: string): EmailContent {
  return email(
    "magic_link",
    "Your LinkLens sign-in link",
    ["Use this link to sign in to LinkLens. It works once and expires in 5 minutes."],
    { label: "Sign in", url },
    "If you did not ask to sign in, ignore this email.",
  );
}

export function passwordResetEmail(url: string): EmailContent {
  return email(
    "password_reset",
    "Reset your LinkLens password",
    ["Someone asked to reset the password of your LinkLens account. The link expires in 1 hour."],
    { label: "Choose a new password", url },
    "If it was not you, ignore this email: your password stays as it is.",
  );
}

export function verifyEmailEmail(url: string): EmailContent {
  return email(
    "verify_email",
    "Confirm your LinkLens email address",
    ["Confirm that this address is yours, so you can sign in by emailed link and receive invitations and alerts."],
    { label: "Confirm email address", url },
    "If you did not create a LinkLens account, ignore this email.",
  );
}

export function invitationEmail(input: {
  url: string;
  organizationName: string;
  inviterName: string;
  role: string;
}): EmailContent {
  return email(
    "invitation",
    `${input.inviterName} invited you to ${input.organizationName} on LinkLens`,
    [
      `${input.inviterName} invited you to join the team "${input.organizationName}" on LinkLens as ${input.role}.`,
      "Sign in or create an account with this email address, then accept the invitation. It expires in 48 hours.",
    ],
    { label: "Accept invitation", url: input.url },
    "If you do not know this team, ignore this email.",
  );
}

/** To an organization's admins and owners when LinkLens stops delivering to a webhook endpoint that keeps failing. */
export function webhookDisabledEmail(input: {
  organizationName: string;
  endpoint: string;
  attempts: number;
  lastError: string | null;
  settingsUrl: string;
}): EmailContent {
  return email(
    "webhook_disabled",
    `Webhook disabled: ${input.endpoint} (${input.organizationName})`,
    [
      `LinkLens stopped sending ${input.organizationName}'s alerts to the webhook ${input.endpoint}: a delivery failed ${input.attempts} times in a row and the endpoint has not accepted one since.`,
      `Last error: ${input.lastError ?? "unknown"}`,
      "Alerts still go out by email. Once the receiver works again, enable the webhook and retry the failed deliveries from the webhooks page.",
    ],
    { label: "Open the webhooks page", url: input.settingsUrl },
    "You get this email because you are an admin or owner of this LinkLens team.",
  );
}

/**
 * To an address an admin added to a scheduled report: nothing is sent to it until it confirms. The link
 * is valid for 7 days and works once.
 */
export function reportConsentEmail(input: {
  organizationName: string;
  reportTitle: string;
  cadence: "weekly" | "monthly";
  when: string;
  email: string;
  url: string;
  expiresOn: string;
}): EmailContent {
  return email(
    "report_consent",
    `${input.organizationName} wants to send you a ${input.cadence} link report — confirm`,
    [
      `${input.organizationName} wants to send ${input.email} a ${input.cadence} link report, "${input.reportTitle}", ${input.when}: what changed on the pages that link to them, with the full report as a PDF.`,
      `Nothing is sent until you confirm. The link works once, until ${input.expiresOn}, and needs no account. Every report has a one-click unsubscribe link.`,
    ],
    { label: "Confirm the reports", url: input.url },
    `If you do not want these reports, ignore this email: you will get none. An admin of ${input.organizationName} added your address on LinkLens.`,
  );
}
