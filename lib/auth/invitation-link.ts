import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "../config";
import { resolveAuthSecret } from "../db/secret";

/**
 * An invitation is taken by proving the invited mailbox, never by its id: every member lists the ids
 * (GET /api/account/invitations), and anyone can sign up any address without confirming it. Better Auth
 * requires a confirmed address to accept or reject (requireEmailVerificationOnInvitation). The emailed
 * link carries the proof for someone who has not confirmed yet: `?token=` is an HMAC of the invitation
 * and its address with the auth secret, so only the mailbox (and the owner reading the outbox, who sent
 * it) has it. Sent with the accept or reject request by the account of that address, it confirms the
 * address, as following a confirmation link would, and Better Auth's rule then lets the request through
 * (./invitation-proof.ts).
 */

function invitationToken(secret: string, invitationId: string, email: string): string {
  return createHmac("sha256", secret)
    .update(`linklens-invitation:${JSON.stringify([invitationId, email.toLowerCase()])}`)
    .digest("base64url");
}

/** The link of an invitation email: the invitation page, with the token that proves the mailbox. */
export function invitationLink(
  origin: string,
  invitationId: string,
  email: string,
  secret = resolveAuthSecret(getConfig()),
): string {
  return `${origin}/app/invitations/${encodeURIComponent(invitationId)}?token=${invitationToken(secret, invitationId, email)}`;
}

/** Whether `token` is the link's token of this invitation (the auth secret of this process). */
export function isInvitationToken(token: string, invitationId: string, email: string): boolean {
  const expected = Buffer.from(invitationToken(resolveAuthSecret(getConfig()), invitationId, email));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
