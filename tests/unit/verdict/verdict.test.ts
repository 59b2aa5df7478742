import { describe, expect, it } from "vitest";
import { CRAWLER_AGENTS, type CrawlerAgent } from "@/lib/schemas/crawlers";
import {
  AT_RISK_REASONS,
  DOES_NOT_COUNT_REASONS,
  REASON_WORDS,
  VERDICT_REASONS,
  type LinkSignals,
  type Verdict,
  type VerdictReason,
} from "@/lib/schemas/verdict";
import {
  bestMatch,
  canonicalElsewhere,
  nextVerdict,
  pageSignals,
  reasonsOf,
  redirectedAway,
  sameUrl,
  valueOf,
  verdictEventDue,
  verdictOf,
  type GoogleFacts,
  type PageFacts,
  type PresentLink,
  type VerdictInput,
} from "@/lib/verdict";

/** Every rule of lib/verdict, one table each (placement-verdict.md "Verdict of a tracked link"). */

const SIGNALS: LinkSignals = { inRawHtml: true, hidden: false, region: "main", inGoogleView: null };
const PAGE: PageFacts = { noindex: false, robotsTxt: "allowed", canonicalElsewhere: false, redirected: false };
const LINK: PresentLink = { isNofollow: false, isSponsored: false, isUgc: false, signals: SIGNALS };

function input(
  overrides: {
    link?: Partial<PresentLink> | null;
    signals?: Partial<LinkSignals>;
    page?: Partial<PageFacts>;
    broken?: boolean;
    removedByScript?: boolean;
    google?: GoogleFacts | null;
  } = {},
): VerdictInput {
  const link =
    overrides.link === null ? null : { ...LINK, ...overrides.link, signals: { ...SIGNALS, ...overrides.signals } };
  return {
    link,
    broken: overrides.broken ?? false,
    removedByScript: overrides.removedByScript ?? false,
    page: { ...PAGE, ...overrides.page },
    google: overrides.google ?? null,
  };
}

describe("reasonsOf: each reason, alone", () => {
  const rows: [VerdictReason[], VerdictInput][] = [
    [[], input()],
    [["missing"], input({ link: null })],
    [["missing", "removed_by_script"], input({ link: null, removedByScript: true })],
    [["broken_target"], input({ broken: true })],
    [["nofollow"], input({ link: { isNofollow: true } })],
    [["sponsored"], input({ link: { isSponsored: true } })],
    [["ugc"], input({ link: { isUgc: true } })],
    [["hidden"], input({ signals: { hidden: true } })],
    [["page_noindex"], input({ page: { noindex: true } })],
    [["robots_disallowed"], input({ page: { robotsTxt: "disallowed" } })],
    [["script_only"], input({ signals: { inRawHtml: false } })],
    [["canonical_elsewhere"], input({ page: { canonicalElsewhere: true } })],
    [["page_redirected"], input({ page: { redirected: true } })],
    [["boilerplate_region"], input({ signals: { region: "header" } })],
    [["boilerplate_region"], input({ signals: { region: "nav" } })],
    [["boilerplate_region"], input({ signals: { region: "aside" } })],
    [["boilerplate_region"], input({ signals: { region: "footer" } })],
  ];
  it.each(rows)("%j", (expected, given) => {
    expect(reasonsOf(given)).toEqual(expected);
  });

  it.each([
    [
      "unknown signals (paste mode, older checks) give no reason",
      input({ signals: { inRawHtml: null, hidden: null, region: null } }),
      [],
    ],
    ["main is not boilerplate", input({ signals: { region: "main" } }), []],
    ["robots.txt unavailable is not a reason", input({ page: { robotsTxt: "unavailable" } }), []],
    ["robots.txt not known (paste mode) is not a reason", input({ page: { robotsTxt: null } }), []],
    ["removed_by_script needs the link missing", input({ removedByScript: true }), []],
    ["broken_target needs the link present", input({ link: null, broken: true }), ["missing"]],
  ] as const)("%s", (_label, given, expected) => {
    expect(reasonsOf(given)).toEqual(expected);
  });
});

describe("reasonsOf: every reason at once, in the spec's order", () => {
  it("a present link with every link and page reason lists them in order", () => {
    const all = input({
      link: { isNofollow: true, isSponsored: true, isUgc: true },
      signals: { hidden: true, inRawHtml: false, region: "footer", inGoogleView: false },
      broken: true,
      page: { noindex: true, robotsTxt: "disallowed", canonicalElsewhere: true, redirected: true },
      google: { noindex: true, hasMatch: true },
    });
    expect(reasonsOf(all)).toEqual(
      VERDICT_REASONS.filter(
        (reason) => reason !== "missing" && reason !== "removed_by_script" && reason !== "shown_only_to_googlebot",
      ),
    );
  });

  it("a missing link keeps the page's reasons and none of a link's", () => {
    const gone = input({
      link: null,
      removedByScript: true,
      signals: { hidden: true, region: "footer" },
      page: { noindex: true, robotsTxt: "disallowed", canonicalElsewhere: true, redirected: true },
    });
    expect(reasonsOf(gone)).toEqual([
      "missing",
      "removed_by_script",
      "page_noindex",
      "robots_disallowed",
      "canonical_elsewhere",
      "page_redirected",
    ]);
  });
});

describe("Google's view (google-view.md §2): each rule", () => {
  const OK: GoogleFacts = { noindex: false, hasMatch: false };
  const rows: [string, VerdictReason[], VerdictInput][] = [
    ["present, in Googlebot's render: nothing", [], input({ signals: { inGoogleView: true }, google: OK })],
    [
      "present for a visitor, absent from Googlebot's render: not_in_google_view (does not count)",
      ["not_in_google_view"],
      input({ signals: { inGoogleView: false }, google: OK }),
    ],
    [
      "inGoogleView false but no usable Google view (off, unavailable): nothing",
      [],
      input({ signals: { inGoogleView: false }, google: null }),
    ],
    ["inGoogleView null (not rendered): nothing", [], input({ signals: { inGoogleView: null }, google: OK })],
    [
      "missing for a visitor, Googlebot's render has a match: shown_only_to_googlebot",
      ["missing", "shown_only_to_googlebot"],
      input({ link: null, google: { noindex: false, hasMatch: true } }),
    ],
    ["missing for both: only missing", ["missing"], input({ link: null, google: OK })],
    ["missing, Google view unavailable or off: only missing", ["missing"], input({ link: null, google: null })],
    [
      "present for a visitor and a match for Googlebot: never cloaking",
      [],
      input({ signals: { inGoogleView: true }, google: { noindex: false, hasMatch: true } }),
    ],
    [
      "only Googlebot's render is noindex: page_noindex",
      ["page_noindex"],
      input({ signals: { inGoogleView: true }, google: { noindex: true, hasMatch: true } }),
    ],
    [
      "both noindex: page_noindex once",
      ["page_noindex"],
      input({ page: { noindex: true }, signals: { inGoogleView: true }, google: { noindex: true, hasMatch: true } }),
    ],
    [
      "in the order of the first list: after robots_disallowed",
      ["page_noindex", "robots_disallowed", "not_in_google_view"],
      input({
        page: { robotsTxt: "disallowed" },
        signals: { inGoogleView: false },
        google: { noindex: true, hasMatch: false },
      }),
    ],
    [
      "missing, removed by script and cloaked: in that order",
      ["missing", "removed_by_script", "shown_only_to_googlebot"],
      input({ link: null, removedByScript: true, google: { noindex: false, hasMatch: true } }),
    ],
  ];
  it.each(rows)("%s", (_name, expected, given) => {
    expect(reasonsOf(given)).toEqual(expected);
  });
  it("both new reasons make a link does_not_count, right after robots_disallowed", () => {
    expect(valueOf(["not_in_google_view"])).toBe("does_not_count");
    expect(valueOf(["shown_only_to_googlebot"])).toBe("does_not_count");
    const order = [...VERDICT_REASONS];
    expect(order.indexOf("not_in_google_view")).toBe(order.indexOf("robots_disallowed") + 1);
    expect(order.indexOf("shown_only_to_googlebot")).toBe(order.indexOf("robots_disallowed") + 2);
  });
});

describe("valueOf", () => {
  it.each(DOES_NOT_COUNT_REASONS.map((reason) => [reason] as const))("%s alone: does_not_count", (reason) => {
    expect(valueOf([reason])).toBe("does_not_count");
  });
  it.each(AT_RISK_REASONS.map((reason) => [reason] as const))("%s alone: at_risk", (reason) => {
    expect(valueOf([reason])).toBe("at_risk");
  });
  it.each(AT_RISK_REASONS.flatMap((risk) => DOES_NOT_COUNT_REASONS.map((fatal) => [risk, fatal] as const)))(
    "%s with %s: does_not_count wins",
    (risk, fatal) => {
      expect(valueOf([fatal, risk])).toBe("does_not_count");
    },
  );
  it("no reason: counts", () => {
    expect(valueOf([])).toBe("counts");
    expect(verdictOf(input())).toEqual({ value: "counts", reasons: [] });
  });
  it("every reason has words for people", () => {
    for (const reason of VERDICT_REASONS) expect(REASON_WORDS[reason].length).toBeGreaterThan(5);
  });
});

describe("sameUrl, canonicalElsewhere, redirectedAway", () => {
  it.each([
    ["https://example.com/a", "https://example.com/a", true],
    ["https://example.com/a#x", "https://example.com/a", true],
    ["https://example.com:443/a", "https://example.com/a", true],
    ["HTTPS://EXAMPLE.com/a", "https://example.com/a", true],
    ["https://example.com/a/", "https://example.com/a", true],
    ["https://example.com/", "https://example.com", true],
    ["https://example.com/a//", "https://example.com/a", false],
    ["https://example.com/A", "https://example.com/a", false],
    ["https://example.com/a?x=1", "https://example.com/a", false],
    ["http://example.com/a", "https://example.com/a", false],
    ["https://www.example.com/a", "https://example.com/a", false],
    ["https://example.com:8443/a", "https://example.com/a", false],
    ["not a url", "not a url", true],
  ] as const)("%s vs %s: %s", (a, b, expected) => {
    expect(sameUrl(a, b)).toBe(expected);
  });

  it.each([
    [null, "https://example.com/a", false],
    ["https://example.com/a/", "https://example.com/a", false],
    ["https://example.com/b", "https://example.com/a", true],
    ["https://example.com/a", null, null],
    [null, null, null],
  ] as const)("canonical %s on %s: %s", (canonical, final, expected) => {
    expect(canonicalElsewhere(canonical, final)).toBe(expected);
  });

  it.each([
    ["https://example.com/a", "https://example.com/a/", false],
    ["https://example.com/a", "https://example.com/b", true],
    ["https://example.com/a", null, false],
  ] as const)("monitored %s, final %s: redirected %s", (monitored, final, expected) => {
    expect(redirectedAway(monitored, final)).toBe(expected);
  });
});

/** Every agent's answer, keys in another order than CRAWLER_AGENTS (as jsonb gives them back). */
const SCRAMBLED_CRAWLERS = Object.fromEntries(
  [...CRAWLER_AGENTS].reverse().map((agent) => [agent, agent === "GPTBot" ? "disallowed" : "allowed"]),
) as Record<CrawlerAgent, "allowed" | "disallowed">;

describe("pageSignals", () => {
  it("URL mode: every field, canonicalElsewhere computed, noindexSource only with noindex", () => {
    expect(
      pageSignals({
        httpStatus: 200,
        finalUrl: "https://example.com/a",
        noindex: true,
        noindexSource: "header",
        canonicalUrl: "https://example.com/b",
        robotsTxt: "disallowed",
        crawlers: SCRAMBLED_CRAWLERS,
      }),
    ).toEqual({
      httpStatus: 200,
      finalUrl: "https://example.com/a",
      noindex: true,
      noindexSource: "header",
      canonicalUrl: "https://example.com/b",
      canonicalElsewhere: true,
      robotsTxt: "disallowed",
      crawlers: SCRAMBLED_CRAWLERS,
      googleView: null,
    });
    expect(
      pageSignals({
        httpStatus: 200,
        finalUrl: "https://example.com/a",
        noindex: false,
        noindexSource: "meta",
        canonicalUrl: null,
        robotsTxt: "allowed",
        crawlers: null,
      }),
    ).toMatchObject({ noindexSource: null, canonicalElsewhere: false, crawlers: null });
  });
  it("crawlers: in the agents' one order whatever the order read (jsonb keeps none); an agent missing is unknown", () => {
    const page = (crawlers: Record<string, string>) =>
      pageSignals({
        httpStatus: 200,
        finalUrl: "https://example.com/a",
        noindex: false,
        noindexSource: null,
        canonicalUrl: null,
        robotsTxt: "allowed",
        crawlers,
      }).crawlers;
    expect(Object.keys(page(SCRAMBLED_CRAWLERS) ?? {})).toEqual([...CRAWLER_AGENTS]);
    const { CCBot: _dropped, ...missingOne } = SCRAMBLED_CRAWLERS;
    expect(page(missingOne)).toBeNull();
    expect(page({ ...SCRAMBLED_CRAWLERS, GPTBot: "maybe" })).toBeNull();
  });
  it("paste mode: only noindex, noindexSource and canonicalUrl", () => {
    expect(
      pageSignals({
        httpStatus: 200,
        finalUrl: null,
        noindex: true,
        noindexSource: "meta",
        canonicalUrl: "https://example.com/b",
        robotsTxt: "allowed",
        crawlers: SCRAMBLED_CRAWLERS,
      }),
    ).toEqual({
      httpStatus: null,
      finalUrl: null,
      noindex: true,
      noindexSource: "meta",
      canonicalUrl: "https://example.com/b",
      canonicalElsewhere: null,
      robotsTxt: null,
      crawlers: null,
      googleView: null,
    });
  });
});

describe("bestMatch: the first that counts, else the first at risk, else the first", () => {
  const COUNTS: Verdict = { value: "counts", reasons: [] };
  const RISK: Verdict = { value: "at_risk", reasons: ["boilerplate_region"] };
  const NOPE: Verdict = { value: "does_not_count", reasons: ["nofollow"] };
  const pick = (rows: [Verdict, boolean][]) =>
    bestMatch(rows.map(([verdict, meetsExpectations], index) => ({ link: index + 1, verdict, meetsExpectations })))
      ?.link ?? null;
  it.each([
    ["none", [], null],
    ["one", [[NOPE, true]], 1],
    [
      "counts after does_not_count",
      [
        [NOPE, true],
        [RISK, true],
        [COUNTS, true],
      ],
      3,
    ],
    [
      "the first of two that count",
      [
        [COUNTS, true],
        [COUNTS, true],
      ],
      1,
    ],
    [
      "at risk before does_not_count",
      [
        [NOPE, true],
        [RISK, true],
        [RISK, true],
      ],
      2,
    ],
    [
      "only does_not_count: the first",
      [
        [NOPE, true],
        [NOPE, true],
      ],
      1,
    ],
    [
      "same rank: the one meeting the expectations",
      [
        [COUNTS, false],
        [COUNTS, true],
      ],
      2,
    ],
    [
      "a better verdict beats expectations",
      [
        [NOPE, true],
        [COUNTS, false],
      ],
      2,
    ],
  ] as [string, [Verdict, boolean][], number | null][])("%s", (_label, rows, expected) => {
    expect(pick(rows)).toBe(expected);
  });
});

describe("nextVerdict: when a check moves the verdict", () => {
  const COUNTS: Verdict = { value: "counts", reasons: [] };
  const HIDDEN: Verdict = { value: "does_not_count", reasons: ["hidden"] };
  const FOOTER: Verdict = { value: "at_risk", reasons: ["boilerplate_region"] };
  const present = input();
  const gone = input({ link: null });
  const MISSING: Verdict = { value: "does_not_count", reasons: ["missing"] };
  const SCRIPTED_AWAY: Verdict = { value: "does_not_count", reasons: ["missing", "removed_by_script"] };
  const scriptedAway = input({ link: null, removedByScript: true });
  it.each([
    ["first check that found the link: a verdict, not a change", null, "live", present, COUNTS, false],
    ["never seen, not on the page: still null", null, "pending", gone, null, false],
    ["never seen, a first miss (state still pending): still null", null, "pending", scriptedAway, null, false],
    [
      "never seen, confirmed missing: does_not_count, a first verdict (not a change)",
      null,
      "missing",
      gone,
      MISSING,
      false,
    ],
    [
      "never seen, confirmed missing, taken out by script from day one (or stored missing with no verdict): removed_by_script",
      null,
      "missing",
      scriptedAway,
      SCRIPTED_AWAY,
      false,
    ],
    ["never seen, missing, then found: its verdict now, a change", SCRIPTED_AWAY, "live", present, COUNTS, true],
    ["first miss (state not yet missing): the last verdict stays", COUNTS, "live", gone, COUNTS, false],
    ["confirmed missing: does_not_count, a change", COUNTS, "missing", gone, MISSING, true],
    ["confirmed missing, taken out by script", COUNTS, "missing", scriptedAway, SCRIPTED_AWAY, true],
    ["back on the page: its verdict now", MISSING, "live", present, COUNTS, true],
    ["hidden at once (no confirmation)", COUNTS, "live", input({ signals: { hidden: true } }), HIDDEN, true],
    ["first broken observation: no broken_target yet", COUNTS, "live", present, COUNTS, false],
    [
      "confirmed broken: broken_target",
      COUNTS,
      "broken",
      present,
      { value: "does_not_count", reasons: ["broken_target"] },
      true,
    ],
    [
      "reasons change, value stays: no change",
      FOOTER,
      "live",
      input({ page: { canonicalElsewhere: true } }),
      { value: "at_risk", reasons: ["canonical_elsewhere"] },
      false,
    ],
  ] as [string, Verdict | null, string, VerdictInput, Verdict | null, boolean][])(
    "%s",
    (_label, previous, state, given, expected, changed) => {
      const move = nextVerdict({ previous, state, input: given });
      expect(move).toEqual({ verdict: expected, changed });
    },
  );

  it("verdict_changed only when the value changed and no other event named the link", () => {
    expect(verdictEventDue({ verdict: COUNTS, changed: true }, 0)).toBe(true);
    expect(verdictEventDue({ verdict: COUNTS, changed: true }, 1)).toBe(false);
    expect(verdictEventDue({ verdict: COUNTS, changed: false }, 0)).toBe(false);
  });
});
