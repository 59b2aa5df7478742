import { describe, expect, it } from "vitest";
import { describeEvent, shortUrl } from "@/lib/alerts/describe";
import { duePeriod } from "@/lib/alerts/digests";
import { alertEmail, digestEmail } from "@/lib/alerts/email";
import { reminderFor } from "@/lib/alerts/expiry";
import { signMuteToken, verifyMuteToken } from "@/lib/alerts/tokens";
import { html, safeHref } from "@/lib/mail/html";

const link = (extra: Record<string, unknown> = {}) => ({
  href: "https://mysite.example/",
  anchorText: "My site",
  isNofollow: false,
  isSponsored: false,
  isUgc: false,
  httpStatus: 200,
  ...extra,
});
const place = { pageUrl: "https://www.example.org/post/", target: "https://yoursite.com/" };

describe("describeEvent", () => {
  it.each([
    [
      "link_missing",
      { state: "live", link: link() },
      { state: "missing", link: null },
      "Link removed: yoursite.com on example.org/post",
    ],
    [
      "link_missing",
      { state: "pending", link: null },
      { state: "missing", link: null },
      "Link not found: yoursite.com on example.org/post",
    ],
    [
      "link_restored",
      { state: "missing", link: null },
      { state: "live", link: link() },
      "Link back: yoursite.com on example.org/post",
    ],
    [
      "link_broken",
      { state: "live", link: link() },
      { state: "broken", link: link({ httpStatus: 404 }) },
      "Link broken: yoursite.com on example.org/post",
    ],
    [
      "link_fixed",
      { state: "broken", link: link({ httpStatus: 0 }) },
      { state: "live", link: link() },
      "Link fixed: yoursite.com on example.org/post",
    ],
    [
      "rel_changed",
      { state: "live", link: link() },
      { state: "rel_mismatch", link: link({ isNofollow: true }) },
      "Link now nofollow: yoursite.com on example.org/post",
    ],
    [
      "anchor_changed",
      { state: "live", link: link() },
      { state: "anchor_mismatch", link: link({ anchorText: "x" }) },
      "Anchor text changed: yoursite.com on example.org/post",
    ],
    ["page_noindex", { noindex: false }, { noindex: true, httpStatus: 200 }, "Page set to noindex: example.org/post"],
    [
      "page_unreachable",
      { status: "ok" },
      { status: "page_error", consecutivePageErrors: 3, errorCode: "UPSTREAM_ERROR", pageStatus: 503 },
      "Page unreachable: example.org/post",
    ],
    [
      "link_expiring",
      null,
      { expiresOn: "2031-01-08", daysLeft: 7 },
      "Placement expires in 7 days: yoursite.com on example.org/post",
    ],
    [
      "verdict_changed",
      { value: "counts", reasons: [] },
      { value: "does_not_count", reasons: ["robots_disallowed"] },
      "Page now blocked by robots.txt: yoursite.com on example.org/post",
    ],
    [
      "crawler_access_changed",
      { disallowed: ["GPTBot"] },
      { disallowed: ["GPTBot", "CCBot"] },
      "AI crawlers now blocked: CCBot on example.org/post",
    ],
  ] as const)("%s names what changed", (type, before, after, headline) => {
    const described = describeEvent({ type, before, after }, place);
    expect(described.headline).toBe(headline);
    expect(described.changes.length).toBeGreaterThan(0);
  });

  it("shows before → after facts", () => {
    const rel = describeEvent(
      {
        type: "rel_changed",
        before: { state: "live", link: link() },
        after: { state: "rel_mismatch", link: link({ isSponsored: true }) },
      },
      place,
    );
    expect(rel.changes).toContainEqual({ label: "Rel", before: "follow", after: "sponsored" });
    const broken = describeEvent(
      {
        type: "link_broken",
        before: { state: "live", link: link() },
        after: { state: "broken", link: link({ httpStatus: 0 }) },
      },
      place,
    );
    expect(broken.changes).toContainEqual({ label: "Target status", before: "HTTP 200", after: "no response" });
    const down = describeEvent(
      { type: "page_unreachable", before: null, after: { errorCode: "UPSTREAM_ERROR", pageStatus: 503 } },
      place,
    );
    expect(down.changes[0]?.after).toBe("UPSTREAM_ERROR (HTTP 503)");
  });

  it("verdict_changed says in words what changed", () => {
    const hidden = describeEvent(
      {
        type: "verdict_changed",
        before: { value: "at_risk", reasons: ["boilerplate_region"] },
        after: { value: "does_not_count", reasons: ["hidden", "boilerplate_region"] },
      },
      place,
    );
    expect(hidden.headline).toBe("Link hidden by CSS: yoursite.com on example.org/post");
    expect(hidden.summary).toBe(
      "The link to https://yoursite.com/ on https://www.example.org/post/ went from “At risk” to “Doesn't count”. Now: Link hidden by CSS; Link in a header, navigation, sidebar or footer.",
    );
    expect(hidden.changes).toEqual([
      { label: "Verdict", before: "At risk", after: "Doesn't count" },
      { label: "New", before: "", after: "Link hidden by CSS" },
    ]);
    const scripted = describeEvent(
      {
        type: "verdict_changed",
        before: { value: "counts", reasons: [] },
        after: { value: "at_risk", reasons: ["script_only"] },
      },
      place,
    );
    expect(scripted.headline).toBe("Link only present after JavaScript: yoursite.com on example.org/post");
    const back = describeEvent(
      {
        type: "verdict_changed",
        before: { value: "does_not_count", reasons: ["page_noindex"] },
        after: { value: "counts", reasons: [] },
      },
      place,
    );
    expect(back.headline).toBe("Link counts again: yoursite.com on example.org/post");
    expect(back.changes).toContainEqual({
      label: "Resolved",
      before: "Page is set to noindex",
      after: "no longer the case",
    });
    const lighter = describeEvent(
      {
        type: "verdict_changed",
        before: { value: "does_not_count", reasons: ["nofollow", "boilerplate_region"] },
        after: { value: "at_risk", reasons: ["boilerplate_region"] },
      },
      place,
    );
    expect(lighter.headline).toBe("Link now at risk: yoursite.com on example.org/post");
    // Stored JSON is read defensively: unknown values and reasons are left out, never echoed.
    const odd = describeEvent(
      { type: "verdict_changed", before: { value: "<b>", reasons: ["x", 3] }, after: null },
      place,
    );
    expect(odd.changes[0]).toEqual({ label: "Verdict", before: "—", after: "—" });
  });

  it("crawler_access_changed says who is now blocked or allowed again, in words", () => {
    const crawlers = (before: unknown, after: unknown) =>
      describeEvent(
        { type: "crawler_access_changed", before: { disallowed: before }, after: { disallowed: after } },
        place,
      );
    const blocked = crawlers([], ["GPTBot", "CCBot"]);
    expect(blocked.headline).toBe("AI crawlers now blocked: GPTBot and CCBot on example.org/post");
    expect(blocked.summary).toBe(
      "The robots.txt of https://www.example.org/post/ now blocks GPTBot and CCBot. Links on it count for Google as before: a link's verdict looks at Googlebot only.",
    );
    expect(blocked.changes).toEqual([
      { label: "Blocked crawlers", before: "none", after: "GPTBot, CCBot" },
      { label: "GPTBot", before: "allowed", after: "blocked" },
      { label: "CCBot", before: "allowed", after: "blocked" },
    ]);
    const allowed = crawlers(["GPTBot", "ClaudeBot"], ["ClaudeBot"]);
    expect(allowed.headline).toBe("AI crawlers allowed again: GPTBot on example.org/post");
    expect(allowed.summary).toContain("no longer blocks GPTBot.");
    expect(allowed.changes[0]).toEqual({ label: "Blocked crawlers", before: "GPTBot, ClaudeBot", after: "ClaudeBot" });
    // Both ways at once: the news is who is blocked now; who is allowed again follows.
    const swapped = crawlers(["GPTBot"], ["ClaudeBot"]);
    expect(swapped.headline).toBe("AI crawlers now blocked: ClaudeBot on example.org/post");
    expect(swapped.summary).toContain("now blocks ClaudeBot and no longer blocks GPTBot.");
    // A search engine's crawler among them is not called an AI crawler, and Googlebot's means the links.
    const google = crawlers([], ["Googlebot", "GPTBot"]);
    expect(google.headline).toBe("Crawlers now blocked: Googlebot and GPTBot on example.org/post");
    expect(google.summary).toContain("Googlebot is among them: links on this page no longer count for Google.");
    expect(crawlers(["Bingbot"], []).headline).toBe("Crawlers allowed again: Bingbot on example.org/post");
    // Stored JSON is read defensively: only known agents, in their order; never an echo of odd values.
    const odd = crawlers(["<b>", "CCBot", 3], "GPTBot");
    expect(odd.headline).toBe("AI crawlers allowed again: CCBot on example.org/post");
    expect(odd.changes[0]).toEqual({ label: "Blocked crawlers", before: "CCBot", after: "none" });
  });

  it("says pages the way people do", () => {
    expect(shortUrl("https://www.example.org/")).toBe("example.org");
    expect(shortUrl("https://blog.example.org/a/b/?q=1")).toBe("blog.example.org/a/b");
    expect(shortUrl(`https://example.org/${"x".repeat(200)}`)).toHaveLength(78);
  });
});

describe("alert emails", () => {
  const section = {
    monitorUrl: "https://example.org/post?x=<b>",
    appUrl: "https://linklens.example/app/monitors/m1",
    muteUrl: "https://linklens.example/mute?token=t.s",
    events: [
      {
        type: "link_missing" as const,
        target: "https://yoursite.com/",
        before: { state: "live", link: link({ anchorText: '<img src=x onerror=alert(1)> & "quotes"' }) },
        after: { state: "missing", link: null },
      },
      { type: "page_noindex" as const, target: null, before: { noindex: false }, after: { noindex: true } },
    ],
  };

  it("has both parts, names the page and the link, links to the monitor and the mute link, and escapes page text", () => {
    const mail = alertEmail(section);
    expect(mail.kind).toBe("alert");
    expect(mail.subject).toBe("Link removed: yoursite.com on example.org/post (+1 more)");
    expect(mail.text).toContain('“<img src=x onerror=alert(1)> & "quotes"”');
    expect(mail.text).toContain("Open the monitor: https://linklens.example/app/monitors/m1");
    expect(mail.text).toContain("Mute this monitor: https://linklens.example/mute?token=t.s");
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;");
    expect(mail.html).not.toMatch(/<img|<b>/);
    expect(mail.html).toContain('href="https://linklens.example/app/monitors/m1"');
    expect(mail.html).toContain("Mute this monitor");
  });

  it("a crawler access change: its subject and body in words", () => {
    const mail = alertEmail({
      ...section,
      events: [
        { type: "crawler_access_changed", target: null, before: { disallowed: [] }, after: { disallowed: ["GPTBot"] } },
      ],
    });
    expect(mail.subject).toBe("AI crawlers now blocked: GPTBot on example.org/post");
    expect(mail.text).toContain("now blocks GPTBot.");
    expect(mail.text).toContain("  Blocked crawlers: none → GPTBot");
    expect(mail.html).toContain("AI crawlers now blocked: GPTBot on example.org/post");
    const back = alertEmail({
      ...section,
      events: [
        { type: "crawler_access_changed", target: null, before: { disallowed: ["GPTBot"] }, after: { disallowed: [] } },
      ],
    });
    expect(back.subject).toBe("AI crawlers allowed again: GPTBot on example.org/post");
  });

  it("groups a digest by monitor", () => {
    const mail = digestEmail({
      period: "daily",
      organizationName: "Acme <SEO>",
      sections: [section, { ...section, monitorUrl: "https://second.example/" }],
      settingsUrl: "https://linklens.example/app/settings",
    });
    expect(mail.subject).toBe("Your daily LinkLens digest: 4 changes on 2 pages (Acme <SEO>)");
    expect(mail.html).toContain("Acme &lt;SEO&gt;");
    expect(mail.text.match(/== https?:\/\/[^ ]+ ==/g)).toHaveLength(2);
  });

  it("the html tag escapes values, keeps nested fragments, and makes only http(s) links clickable", () => {
    expect(html`<p>${"<script>"}</p>${[html`<i>${"&"}</i>`]}`.value).toBe("<p>&lt;script&gt;</p><i>&amp;</i>");
    expect(safeHref("javascript:alert(1)")).toBe("#");
    expect(safeHref("https://x.example/")).toBe("https://x.example/");
  });
});

describe("mute tokens", () => {
  const secret = "s".repeat(32);
  it("round-trip, and refuse a changed payload, a changed signature, another secret and junk", () => {
    const token = signMuteToken(secret, { kind: "mute", userId: "u1", monitorId: "m1" });
    expect(verifyMuteToken(secret, token)).toEqual({ kind: "mute", userId: "u1", monitorId: "m1" });
    expect(verifyMuteToken(secret, signMuteToken(secret, { kind: "off", userId: "u1", organizationId: "o1" }))).toEqual(
      { kind: "off", userId: "u1", organizationId: "o1" },
    );
    const [, signature] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify(["mute", "u2", "m1"])).toString("base64url")}.${signature}`;
    expect(verifyMuteToken(secret, forged)).toBeNull();
    expect(verifyMuteToken(secret, `${token}x`)).toBeNull();
    expect(verifyMuteToken("t".repeat(32), token)).toBeNull();
    for (const junk of ["", ".", "a.b.c", "x".repeat(2000)]) expect(verifyMuteToken(secret, junk)).toBeNull();
  });
});

describe("schedules", () => {
  it("daily digests are due from the hour for three hours, keyed by the day", () => {
    expect(duePeriod("daily", 9, new Date("2031-03-04T08:59:59Z"))).toBeNull();
    expect(duePeriod("daily", 9, new Date("2031-03-04T09:00:00Z"))?.key).toBe("daily:2031-03-04T09");
    expect(duePeriod("daily", 9, new Date("2031-03-04T11:59:00Z"))?.key).toBe("daily:2031-03-04T09");
    expect(duePeriod("daily", 9, new Date("2031-03-04T12:00:00Z"))).toBeNull();
    expect(duePeriod("daily", 23, new Date("2031-03-05T01:00:00Z"))?.key).toBe("daily:2031-03-04T23");
    expect(duePeriod("daily", 9, new Date("2031-03-04T09:30:00Z"))?.windowStart.toISOString()).toBe(
      "2031-03-03T09:00:00.000Z",
    );
  });

  it("weekly digests are due on Mondays", () => {
    expect(duePeriod("weekly", 6, new Date("2031-03-10T06:10:00Z"))?.key).toBe("weekly:2031-03-10T06"); // a Monday
    expect(duePeriod("weekly", 6, new Date("2031-03-11T06:10:00Z"))).toBeNull();
    expect(duePeriod("weekly", 6, new Date("2031-03-10T06:10:00Z"))?.windowStart.toISOString()).toBe(
      "2031-03-03T06:00:00.000Z",
    );
  });

  it("expiry reminders: the week's from 7 days before, the day's from 1 day before", () => {
    expect(reminderFor("2031-06-10", "2031-06-02")).toBeNull();
    expect(reminderFor("2031-06-10", "2031-06-03")).toEqual({ key: "7", daysLeft: 7 });
    expect(reminderFor("2031-06-10", "2031-06-08")).toEqual({ key: "7", daysLeft: 2 });
    expect(reminderFor("2031-06-10", "2031-06-09")).toEqual({ key: "1", daysLeft: 1 });
    expect(reminderFor("2031-06-10", "2031-06-10")).toEqual({ key: "1", daysLeft: 0 });
    expect(reminderFor("2031-06-10", "2031-06-11")).toBeNull();
  });
});
