import { describe, expect, it } from "vitest";
import type { ReportContent } from "@/lib/reports/report-data";
import { EMAIL_CHANGE_LIMIT, reportEmail } from "@/lib/reports/report-email";
import { reportHtml } from "@/lib/reports/report-html";
import type { DailyStatsDay } from "@/lib/schemas/stats";
import type { ScopedLink } from "@/lib/shares/scope";

/**
 * The words of a scheduled report, as its email and its PDF's HTML say them: the period, the counts by
 * state and by verdict, what changed (lost, restored, verdict changes; cut in the email, whole in the
 * PDF), the share link, the branding, the unsubscribe link; page text always escaped; nothing in the PDF
 * that would be fetched.
 */

const HOSTILE_PAGE = `https://blog.example/post?q="><img src=x onerror=alert(1)>`;
const HOSTILE_TARGET = `https://mine.example/<script>alert(2)</script>`;

const day = (date: string, live: number, missing: number): DailyStatsDay => ({
  date,
  live,
  missing,
  broken: 0,
  rel_mismatch: 0,
  anchor_mismatch: 0,
  pending: 0,
  counts: live,
  at_risk: 0,
  does_not_count: missing,
});

const link = (index: number, overrides: Partial<ScopedLink> = {}): ScopedLink => ({
  id: `l${index}`,
  pageUrl: `https://blog.example/post-${index}`,
  target: `https://mine.example/${index}`,
  match: "exact",
  state: "live",
  verdict: { value: "counts", reasons: [] },
  lastCheckedAt: new Date("2031-03-10T07:00:00Z"),
  createdAt: new Date("2031-01-01T00:00:00Z"),
  ...overrides,
});

function content(overrides: Partial<ReportContent> = {}): ReportContent {
  return {
    branding: { name: "Acme Agency", accentColor: "#0f766e", footer: "Acme Agency · 1 Main Street", logoPng: null },
    title: "Spring placements",
    covers: "tag “client acme”",
    cadence: "weekly",
    period: { start: new Date("2031-03-03T09:00:00Z"), end: new Date("2031-03-10T09:00:00Z") },
    sinceLastReport: true,
    total: 4,
    states: { live: 2, missing: 1, broken: 1, rel_mismatch: 0, anchor_mismatch: 0, pending: 0 },
    verdicts: { counts: 2, at_risk: 0, does_not_count: 2, none: 0 },
    changes: {
      lost: [
        {
          pageUrl: HOSTILE_PAGE,
          target: HOSTILE_TARGET,
          from: "live",
          to: "missing",
          at: new Date("2031-03-08T14:02:00Z"),
        },
      ],
      restored: [
        {
          pageUrl: "https://news.example/a",
          target: "https://mine.example/b",
          from: "missing",
          to: "live",
          at: new Date("2031-03-09T10:00:00Z"),
        },
      ],
      verdicts: [
        {
          pageUrl: "https://blog.example/post-1",
          target: "https://mine.example/1",
          from: "counts",
          to: "does_not_count",
          reasons: ["nofollow"],
          at: new Date("2031-03-05T10:00:00Z"),
        },
      ],
    },
    links: [
      link(1, { verdict: { value: "does_not_count", reasons: ["nofollow", "hidden"] } }),
      link(2, { pageUrl: HOSTILE_PAGE, target: HOSTILE_TARGET, state: "missing", lastCheckedAt: null }),
    ],
    chart: [day("2031-03-03", 3, 0), day("2031-03-10", 2, 2)],
    reportUrl: `https://linklens.example/r/${"T".repeat(32)}`,
    expiresAt: new Date("2031-12-31T00:00:00Z"),
    ...overrides,
  };
}

const email = (overrides: Partial<ReportContent> = {}, test = false) =>
  reportEmail({
    content: content(overrides),
    to: "client@example.com",
    unsubscribeUrl: "https://linklens.example/report-emails/unsubscribe?token=abc.def",
    test,
  });

describe("the report email", () => {
  it("says the period, the counts, what changed, the link and how to unsubscribe, in words", () => {
    const { kind, subject, text } = email();
    expect(kind).toBe("report");
    expect(subject).toBe("Spring placements — weekly link report from Acme Agency");
    for (const words of [
      "Weekly link report: Spring placements",
      "Acme Agency · tag “client acme”",
      "From Monday 3 March 2031, 09:00 UTC to Monday 10 March 2031, 09:00 UTC.",
      "4 tracked links in this report.",
      "By state: 2 live, 1 broken, 1 missing.",
      "By verdict: 2 count, 2 don't count.",
      "What changed since the last report:",
      "Lost (1):",
      `- ${HOSTILE_TARGET} on ${HOSTILE_PAGE}: now missing (since Saturday 8 March 2031, 14:02 UTC)`,
      "Restored (1):",
      "- https://mine.example/b on https://news.example/a: now live (since Sunday 9 March 2031, 10:00 UTC)",
      "Verdict changes (1):",
      "- https://mine.example/1 on https://blog.example/post-1: Counts → Doesn't count (Link is nofollow)",
      "attached PDF",
      `The report on the web (the link works until 31 December 2031): https://linklens.example/r/${"T".repeat(32)}`,
      "Acme Agency · 1 Main Street",
      "You get this report because an admin of Acme Agency added client@example.com and you confirmed.",
      "Unsubscribe (one click, no account needed): https://linklens.example/report-emails/unsubscribe?token=abc.def",
    ])
      expect(text).toContain(words);
  });

  it("a first report says what changed in the last week (or month); nothing changed says so", () => {
    const first = email({
      sinceLastReport: false,
      cadence: "monthly",
      changes: { lost: [], restored: [], verdicts: [] },
      expiresAt: null,
    });
    expect(first.subject).toBe("Spring placements — monthly link report from Acme Agency");
    expect(first.text).toContain("What changed in the last month:");
    expect(first.text).toContain("Nothing changed: no link was lost or restored, and no verdict changed.");
    expect(first.text).toContain("The report on the web: https://linklens.example/r/");
    expect(first.html).toContain("Nothing changed");
  });

  it(`lists at most ${EMAIL_CHANGE_LIMIT} changes of a kind and points to the PDF for the rest`, () => {
    const lost = Array.from({ length: 30 }, (_, index) => ({
      pageUrl: `https://blog.example/${index}`,
      target: "https://mine.example/",
      from: "live" as const,
      to: "missing" as const,
      at: new Date("2031-03-08T00:00:00Z"),
    }));
    const { text, html } = email({ changes: { lost, restored: [], verdicts: [] } });
    expect(text).toContain("Lost (30):");
    expect(text.match(/^- https:\/\/mine\.example\/ on/gm)).toHaveLength(EMAIL_CHANGE_LIMIT);
    expect(text).toContain("… and 5 more (in the attached PDF).");
    expect(html).toContain("… and 5 more (in the attached PDF).");
  });

  it("escapes page text in the HTML part and draws the accent colour", () => {
    const { html } = email();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("#0f766e");
    expect(html).toContain('href="https://linklens.example/report-emails/unsubscribe?token=abc.def"');
  });

  it("a test says it is one, in the subject and the body", () => {
    const { subject, text } = email({}, true);
    expect(subject).toBe("[Test] Spring placements — weekly link report from Acme Agency");
    expect(text).toContain("This is a test: an admin of Acme Agency sent it to their own address, client@example.com.");
  });
});

describe("the report PDF's HTML", () => {
  const page = reportHtml(content(), new Date("2031-03-10T09:00:05Z"));

  it("has the branding, the title, the period, the counts, every change and every link with its verdict", () => {
    for (const words of [
      "Acme Agency",
      "<h1>Spring placements</h1>",
      "From Monday 3 March 2031, 09:00 UTC to Monday 10 March 2031, 09:00 UTC.",
      "By state: 2 live, 1 broken, 1 missing.",
      "Doesn&#39;t count",
      "Link hidden by CSS",
      "Not checked yet",
      "https://blog.example/post-1",
      "Acme Agency · 1 Main Street",
      "Tracked links by state at the end of each day, 3 March 2031 to 10 March 2031",
    ])
      expect(page).toContain(words);
    expect(page).toContain("background: #0f766e");
  });

  it("fetches nothing: no external source, stylesheet or script, and page text escaped", () => {
    expect(page).not.toMatch(/<script|<link|<iframe|src="(?!data:)|url\(/i);
    expect(page).not.toContain("<img src=x");
    expect(page).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(page).toContain("default-src 'none'");
  });

  it("a logo is a data: URL", () => {
    const withLogo = reportHtml(
      content({
        branding: { name: "Acme", accentColor: null, footer: null, logoPng: new Uint8Array([137, 80, 78, 71]) },
      }),
      new Date("2031-03-10T09:00:05Z"),
    );
    expect(withLogo).toContain('src="data:image/png;base64,iVBORw=="');
  });
});
