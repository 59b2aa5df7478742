import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describeDay, PortfolioChart } from "@/components/charts/PortfolioChart";
import { barsOf, niceMax, totalOf } from "@/lib/charts/portfolio-bars";
import { runsOf } from "@/components/charts/runs";
import { describeUptime, livePercentText, UptimeStrip } from "@/components/charts/UptimeStrip";
import type { DailyStatsDay, Uptime } from "@/lib/schemas/stats";

const day = (date: string, counts: Partial<DailyStatsDay> = {}): DailyStatsDay => ({
  date,
  live: 0,
  missing: 0,
  broken: 0,
  rel_mismatch: 0,
  anchor_mismatch: 0,
  pending: 0,
  counts: 0,
  at_risk: 0,
  does_not_count: 0,
  ...counts,
});

describe("runsOf", () => {
  it.each([
    ["nothing", [], []],
    ["one day", [["2026-05-01", "live"]], [{ from: "2026-05-01", to: "2026-05-01", value: "live", days: 1 }]],
    [
      "runs of equal values",
      [
        ["2026-05-01", null],
        ["2026-05-02", "live"],
        ["2026-05-03", "live"],
        ["2026-05-04", "missing"],
      ],
      [
        { from: "2026-05-01", to: "2026-05-01", value: null, days: 1 },
        { from: "2026-05-02", to: "2026-05-03", value: "live", days: 2 },
        { from: "2026-05-04", to: "2026-05-04", value: "missing", days: 1 },
      ],
    ],
  ] as const)("%s", (_name, days, runs) => {
    expect(runsOf(days.map(([date, value]) => ({ date, value })))).toEqual(runs);
  });
});

describe("chart scales and words", () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [12, 20],
    [99, 100],
    [101, 200],
    [4321, 5000],
    [100000, 100000],
  ])("niceMax(%i) = %i", (value, top) => {
    expect(niceMax(value)).toBe(top);
  });

  it.each([
    [null, "not checked yet"],
    [100, "100.0 % live"],
    [97.25, "97.3 % live"],
  ])("livePercentText(%s) = %s", (percent, text) => {
    expect(livePercentText(percent)).toBe(text);
  });

  it("describes a day by its non-zero states (verdicts are not states)", () => {
    expect(describeDay(day("2026-05-04", { live: 120, missing: 3, counts: 100 }))).toBe(
      "May 4, 2026: 120 live, 3 missing",
    );
    expect(describeDay(day("2026-05-04"))).toBe("May 4, 2026: no tracked links");
    expect(totalOf(day("2026-05-04", { live: 2, pending: 1, at_risk: 5 }))).toBe(3);
  });
});

describe("accessible SVG", () => {
  const uptime: Uptime = {
    livePercent: 66.7,
    days: [
      { date: "2026-05-01", state: null },
      { date: "2026-05-02", state: "live" },
      { date: "2026-05-03", state: "missing" },
      { date: "2026-05-04", state: "live" },
    ],
  };

  it("a strip is an image named by its title and described in words, one shape per run of days with its tooltip", () => {
    const html = renderToStaticMarkup(createElement(UptimeStrip, { uptime, label: "https://mine.example/" }));
    expect(html).toMatch(/<svg role="img" aria-labelledby="(_R_\w+_)t" aria-describedby="\1d"/);
    expect(html).toContain("4-day history of https://mine.example/</title>");
    expect(describeUptime(uptime)).toBe(
      "66.7 % live over 4 days. May 1, 2026: not tracked yet; May 2, 2026: live; May 3, 2026: missing; May 4, 2026: live.",
    );
    expect(html).toContain(`>${describeUptime(uptime)}</desc>`);
    // Four runs of one day each, each as wide as its days (5 units a day), cut into cells by the mask.
    expect(
      [
        ...html.matchAll(
          /<rect x="(\d+)" width="(\d+)" height="16" class="[^"]+" data-state="(\w+)" data-days="(\d+)">/g,
        ),
      ].map((m) => m.slice(1)),
    ).toEqual([
      ["0", "5", "none", "1"],
      ["5", "5", "live", "1"],
      ["10", "5", "missing", "1"],
      ["15", "5", "live", "1"],
    ]);
    expect(html).toMatch(
      /<pattern id="(_R_\w+_)p" width="5" height="16" patternUnits="userSpaceOnUse"><rect width="4" height="16" fill="#fff"><\/rect><\/pattern>/,
    );
    expect(html).toContain("<title>May 3, 2026: missing</title>");
    expect(html).toContain("66.7 % live");
    expect(html).not.toContain("<canvas");
  });

  it("a run of several days is one shape whose tooltip names its days", () => {
    const long: Uptime = {
      livePercent: 100,
      days: ["2026-05-01", "2026-05-02", "2026-05-03"].map((date) => ({ date, state: "live" as const })),
    };
    const html = renderToStaticMarkup(createElement(UptimeStrip, { uptime: long, label: "x" }));
    expect(html.match(/data-state=/g)).toHaveLength(1);
    expect(html).toContain("<title>May 1, 2026 to May 3, 2026: live (3 days)</title>");
  });

  it("the portfolio chart stacks states per day (a shape per state), with a tooltip per day and the numbers as a table", () => {
    const days = [day("2026-05-03", { live: 2, missing: 1 }), day("2026-05-04", { live: 3, pending: 1 })];
    const html = renderToStaticMarkup(createElement(PortfolioChart, { days }));
    expect(html).toMatch(/<svg role="img" aria-labelledby="(_R_\w+_)-t" aria-describedby="\1-d"/);
    expect(html).toContain("Tracked links by state at the end of each day, last 2 days</title>");
    expect(html).toContain("<title>May 3, 2026: 2 live, 1 missing</title>");
    // The axis top is niceMax(4) = 5 over 160 units: the second day's live bar is 96 high from the bottom.
    expect(barsOf(days, "live", 5)).toBe("M1 96h8v64h-8zM11 64h8v96h-8z");
    expect(barsOf(days, "missing", 5)).toBe("M1 64h8v32h-8z");
    expect(barsOf(days, "pending", 5)).toBe("M11 32h8v32h-8z");
    expect(barsOf(days, "broken", 5)).toBe("");
    expect(html).toContain('d="M1 96h8v64h-8zM11 64h8v96h-8z"');
    expect(html).toContain("<table");
    expect(html).toContain('<th scope="row" class="py-1 pr-2 font-normal whitespace-nowrap">2026-05-04</th>');
  });
});
