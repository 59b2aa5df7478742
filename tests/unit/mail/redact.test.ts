import { describe, expect, it } from "vitest";
import { alertEmail, digestEmail } from "@/lib/alerts/email";
import { alertLinks } from "@/lib/alerts/links";
import { HIDDEN_LINK, hidePersonalLinks } from "@/lib/mail/redact";
import { invitationEmail, magicLinkEmail, passwordResetEmail, verifyEmailEmail } from "@/lib/mail/templates";

/**
 * What an owner sees of another member's email in the outbox: every link that acts for the recipient is
 * hidden, whatever email carries it, and the links anyone may follow stay.
 */
const links = alertLinks("https://linklens.example", "unit-secret-unit-secret-unit-secret-0123");
const section = {
  monitorUrl: "https://blog.example/post?ref=a&b=c",
  appUrl: links.monitor("m1"),
  muteUrl: links.mute({ kind: "mute", userId: "u1", monitorId: "m1" }),
  events: [
    {
      type: "link_missing" as const,
      before: { state: "live" as const, link: null },
      after: { state: "missing" as const, link: null },
      target: "https://mine.example/",
    },
  ],
};

describe("hidePersonalLinks", () => {
  it.each([
    ["an alert", alertEmail(section).text, [section.muteUrl]],
    [
      "a digest",
      digestEmail({ period: "daily", organizationName: "Team", sections: [section], settingsUrl: links.settings() })
        .text,
      [section.muteUrl],
    ],
    [
      "a sign-in link",
      magicLinkEmail("https://linklens.example/api/auth/magic-link/verify?token=abc&callbackURL=%2Fapp").text,
      ["token=abc"],
    ],
    ["a password reset", passwordResetEmail("https://linklens.example/reset-password?token=xyz").text, ["token=xyz"]],
    [
      "an address confirmation",
      verifyEmailEmail("https://linklens.example/api/auth/verify-email?token=t.u.v&callbackURL=/app").text,
      ["token=t.u.v"],
    ],
  ])("hides the personal links of %s", (_, text, secrets) => {
    const shown = hidePersonalLinks(text);
    expect(text).not.toBe(shown);
    for (const secret of secrets) expect(shown).not.toContain(secret);
    expect(shown).not.toMatch(/token=/i);
    expect(shown).toContain(HIDDEN_LINK);
  });

  it("keeps the links anyone may follow, and the List-Unsubscribe link is one it hides", () => {
    const shown = hidePersonalLinks(alertEmail(section).text);
    expect(shown).toContain(`Open the monitor: ${links.monitor("m1")}`);
    expect(shown).toContain(`Mute this monitor: ${HIDDEN_LINK}`);
    const invitation = invitationEmail({
      url: "https://linklens.example/app/invitations/i1",
      organizationName: "Team",
      inviterName: "Ada",
      role: "member",
    }).text;
    expect(hidePersonalLinks(invitation)).toBe(invitation);
    // The invitation link's token confirms the invitee's address: the owner gets the link without it.
    const withToken = invitationEmail({
      url: "https://linklens.example/app/invitations/i1?token=secret.sig",
      organizationName: "Team",
      inviterName: "Ada",
      role: "member",
    }).text;
    const shownInvitation = hidePersonalLinks(withToken);
    expect(shownInvitation).not.toContain("secret.sig");
    expect(shownInvitation).toContain("https://linklens.example/app/invitations/i1");
    expect(shownInvitation).not.toContain(HIDDEN_LINK);
    expect(hidePersonalLinks(`<${links.oneClick({ kind: "off", userId: "u1", organizationId: "o1" })}>`)).toBe(
      `<${HIDDEN_LINK}>`,
    );
  });
});
