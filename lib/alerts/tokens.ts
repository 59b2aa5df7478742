import { signTuple, verifyTuple } from "../signed-token";

/**
 * Signed one-click links in alert emails, which work without signing in and only for the recipient and
 * monitor they name: `mute` mutes one monitor for one user; `off` turns one user's alert emails off in
 * one organization (the digest's List-Unsubscribe). A token is the payload and an HMAC-SHA256 of it
 * with the server's auth secret; it does not expire (an unsubscribe link must keep working), and it
 * can do nothing but that one reversible thing.
 */

export type MuteAction =
  { kind: "mute"; userId: string; monitorId: string } | { kind: "off"; userId: string; organizationId: string };

// The label existing links were signed with: changing it would break every mute link already sent.
const LABEL = "linklens-alerts";

export function signMuteToken(secret: string, action: MuteAction): string {
  const subject = action.kind === "mute" ? action.monitorId : action.organizationId;
  return signTuple(secret, LABEL, [action.kind, action.userId, subject]);
}

/** The action a token grants, or null when it is malformed or its signature does not match. */
export function verifyMuteToken(secret: string, token: string): MuteAction | null {
  const parts = verifyTuple(secret, LABEL, token, 3);
  if (parts === null) return null;
  const [kind, userId, subject] = parts as [string, string, string];
  if (kind === "mute") return { kind, userId, monitorId: subject };
  if (kind === "off") return { kind, userId, organizationId: subject };
  return null;
}
