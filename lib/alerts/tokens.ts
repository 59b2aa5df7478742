import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed one-click links in alert emails, which work without signing in and only for the recipient and
 * monitor they name: `mute` mutes one monitor for one user; `off` turns one user's alert emails off in
 * one organization (the digest's List-Unsubscribe). A token is the payload and an HMAC-SHA256 of it
 * with the server's auth secret; it does not expire (an unsubscribe link must keep working), and it
 * can do nothing but that one reversible thing.
 */

export type MuteAction =
  { kind: "mute"; userId: string; monitorId: string } | { kind: "off"; userId: string; organizationId: string };

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`linklens-alerts:${payload}`).digest("base64url");
}

export function signMuteToken(secret: string, action: MuteAction): string {
  const subject = action.kind === "mute" ? action.monitorId : action.organizationId;
  const payload = Buffer.from(JSON.stringify([action.kind, action.userId, subject])).toString("base64url");
  return `${payload}.${sign(secret, payload)}`;
}

/** The action a token grants, or null when it is malformed or its signature does not match. */
export function verifyMuteToken(secret: string, token: string): MuteAction | null {
  if (token.length > 1_000) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (
      !Array.isArray(parsed) ||
      parsed.length !== 3 ||
      !parsed.every((part) => typeof part === "string" && part.length > 0)
    )
      return null;
    const [kind, userId, subject] = parsed as [string, string, string];
    if (kind === "mute") return { kind, userId, monitorId: subject };
    if (kind === "off") return { kind, userId, organizationId: subject };
    return null;
  } catch {
    return null;
  }
}
