/**
 * Links that act for the person an email was sent to, without signing in, carry a `token=` parameter: the
 * one-click mute links of alert emails (`/mute?token=`, `/api/mute?token=`) and Better Auth's sign-in,
 * reset and confirmation links. An owner reads the team's outbox (Settings → Email, when SMTP is off);
 * in an email addressed to someone else these links are replaced, or the owner could mute alerts, or
 * worse, for that member. The rest of the email (the monitor link, an invitation link, which only the
 * invitee's account can accept) stays readable.
 */
const PERSONAL_LINK = /https?:\/\/[^\s<>"']*[?&]token=[^\s<>"']*/gi;

export const HIDDEN_LINK = "[personal link hidden: it works only in the recipient's own email]";

export function hidePersonalLinks(text: string): string {
  return text.replace(PERSONAL_LINK, HIDDEN_LINK);
}
