import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Tokens for links that act without signing in (mute an alert, unsubscribe from a report): a list of
 * strings as base64url JSON, then an HMAC-SHA256 of it under the server's secret and the link's own
 * label, so a token made for one kind of link is never one of another. They do not expire: what they
 * allow is one small, reversible thing that must keep working in every email ever sent.
 */

const MAX_TOKEN_LENGTH = 1_000;

function sign(secret: string, label: string, payload: string): string {
  return createHmac("sha256", secret).update(`${label}:${payload}`).digest("base64url");
}

export function signTuple(secret: string, label: string, parts: readonly string[]): string {
  const payload = Buffer.from(JSON.stringify(parts)).toString("base64url");
  return `${payload}.${sign(secret, label, payload)}`;
}

/** The `count` non-empty strings a token signed under `label` carries, or null (malformed, forged, other). */
export function verifyTuple(secret: string, label: string, token: string, count: number): string[] | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, label, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== count) return null;
    return parsed.every((part) => typeof part === "string" && part.length > 0) ? (parsed as string[]) : null;
  } catch {
    return null;
  }
}
