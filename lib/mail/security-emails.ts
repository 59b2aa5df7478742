import { email, type EmailContent } from "./templates";

/**
 * Emails about the account's own sign-in security (docs/account-api.md "Two-factor sign-in"): sent to the
 * user whenever two-factor sign-in is turned on or off and whenever a backup code is used, so that a
 * change they did not make is noticed. Each says when and from where, and what to do if it was not them.
 */

export interface SecurityEventFacts {
  /** When it happened. */
  at: Date;
  /** The browser's User-Agent, and the client address, as the request carried them. */
  userAgent: string | null;
  ipAddress: string | null;
  /** Settings → Security of the app, absolute. */
  settingsUrl: string;
}

function whenAndWhere(facts: SecurityEventFacts): string {
  const at = `${facts.at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `When: ${at}. Device: ${facts.userAgent ?? "unknown"}, address ${facts.ipAddress ?? "unknown"}.`;
}

const NOT_YOU = "If this was not you, reset your password now and sign out the devices you do not know in Settings.";

export function twoFactorEnabledEmail(facts: SecurityEventFacts): EmailContent {
  return email(
    "two_factor_enabled",
    "Two-factor sign-in is on for your LinkLens account",
    [
      "Two-factor sign-in was turned on for your LinkLens account: from now on, signing in takes a code from your authenticator app (or one of your backup codes) after your password or emailed link.",
      "Keep your backup codes somewhere safe. Each works once, and they are your way in if you lose your phone.",
      whenAndWhere(facts),
    ],
    { label: "Open security settings", url: facts.settingsUrl },
    NOT_YOU,
  );
}

export function twoFactorDisabledEmail(facts: SecurityEventFacts): EmailContent {
  return email(
    "two_factor_disabled",
    "Two-factor sign-in is off for your LinkLens account",
    [
      "Two-factor sign-in was turned off for your LinkLens account: your password or an emailed link is enough to sign in again, and your backup codes no longer work.",
      whenAndWhere(facts),
    ],
    { label: "Turn it on again", url: facts.settingsUrl },
    `${NOT_YOU} Someone who knows your password can turn two-factor sign-in off: turn it on again afterwards.`,
  );
}

export function backupCodeUsedEmail(facts: SecurityEventFacts & { codesLeft: number | null }): EmailContent {
  const left =
    facts.codesLeft === null
      ? "Each backup code works once."
      : `Each backup code works once: ${facts.codesLeft} of yours ${facts.codesLeft === 1 ? "is" : "are"} left.`;
  return email(
    "backup_code_used",
    "A backup code was used on your LinkLens account",
    [
      "One of your two-factor backup codes was just used on your LinkLens account.",
      `${left} You can make a new set in Settings → Security (the old codes stop working then).`,
      whenAndWhere(facts),
    ],
    { label: "Open security settings", url: facts.settingsUrl },
    NOT_YOU,
  );
}
