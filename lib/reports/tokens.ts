import { createHmac, timingSafeEqual } from "node:crypto";

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

const LABEL = "linklens-report-unsubscribe:";

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`${LABEL}${payload}`).digest("base64url");
}

export function signUnsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  const payload = Buffer.from(JSON.stringify([target.shareId, target.email.toLowerCase()])).toString("base64url");
  return `${payload}.${sign(secret, payload)}`;
}

/** The address and share a token names, or null when it is malformed or its signature does not match. */
export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | null {
  if (token.length > 1_000) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [shareId, email] = parsed as unknown[];
    if (typeof shareId !== "string" || typeof email !== "string" || !shareId || !email) return null;
    return { shareId, email };
  } catch {
    return null;
  }
}
