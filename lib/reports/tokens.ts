import { signTuple, verifyTuple } from "../signed-token";

/**
 * The one-click unsubscribe links of scheduled report emails: a token names one address and one share,
 * signed with HMAC-SHA256 under the auth secret (its own label, so no other link's token is one). It does
 * not expire and works without an account: an unsubscribe link must keep working in every report ever
 * sent, and all it can do is stop that share's reports to that address. Confirmation links are random
 * instead (lib/reports/recipients.ts): they expire and work once.
 */

export interface UnsubscribeTarget {
  shareId: string;
  email: string;
}

// The label existing links were signed with: changing it would break every unsubscribe link already sent.
const LABEL = "linklens-report-unsubscribe";

export function signUnsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  return signTuple(secret, LABEL, [target.shareId, target.email.toLowerCase()]);
}

/** The address and share a token names, or null when it is malformed or its signature does not match. */
export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | null {
  const parts = verifyTuple(secret, LABEL, token, 2);
  if (parts === null) return null;
  const [shareId, email] = parts as [string, string];
  return { shareId, email };
}
