/**
 * Links that act for the person an email was sent to, without signing in, carry a `token=` parameter: the
 * one-click mute links of alert emails (`/mute?token=`, `/api/mute?token=`), Better Auth's sign-in, reset
 * and confirmation links, and the invitation link's token (which confirms the invitee's address). An owner
 * reads the team's outbox (Settings → Email, when SMTP is off); in an email addressed to someone else these
 * links are replaced, or the owner could mute alerts, sign in, or confirm an address for that person.
 *
 * An invitation link keeps its path without the token: the owner can still hand it to the invitee, who
 * accepts it with an account whose address is confirmed (docs/account-api.md "Authentication": "Accept
 * invitation").
 */
const PERSONAL_LINK = /https?:\/\/[^\s<>"']*[?&]token=[^\s<>"']*/gi;
const INVITATION_PATH = /^\/app\/invitations\/[^/]+$/;

export const HIDDEN_LINK = "[personal link hidden: it works only in the recipient's own email]";

export function hidePersonalLinks(text: string): string {
  return text.replace(PERSONAL_LINK, (link) => withoutToken(link) ?? HIDDEN_LINK);
}

/** An invitation link without its token, or null for any other link. */
function withoutToken(link: string): string | null {
  const url = URL.parse(link);
  if (!url || !INVITATION_PATH.test(url.pathname)) return null;
  url.searchParams.delete("token");
  return url.href;
}
