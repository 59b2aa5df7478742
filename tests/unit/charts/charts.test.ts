import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describeDay, niceMax, PortfolioChart, totalOf } from "@/components/charts/PortfolioChart";
import { runsOf } from "@/components/charts/runs";
import { describeUptime, livePercentText, UptimeStrip } from "@/components/charts/UptimeStrip";
import type { DailyStatsDay, Uptime } from "@/lib/schemas/stats";

const day = (date: string, counts: Partial<DailyStatsDay> = {}): DailyStatsDay => ({ date, live: 0, missing: 0, broken: 0, rel_mismatch: 0, anchor_mismatch: 0, pending: 0, counts: 0, at_risk: 0, does_not_count: 0, ...counts });

describe("runsOf", () => {
  it.each([
    ["nothing", [], []],
    ["one day", [["2026-05-01", "live"]], [{ from: "2026-05-01", to: "2026-05-01", value: "live", days: 1 }]],
    [
      "runs of equal values",
      [["2026-05-01", null], ["2026-05-02", "live"], ["2026-05-03", "live"], ["2026-05-04", "missing"]],
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
    expect(describeDay(day("2026-05-04", { live: 120, missing: 3, counts: 100 }))).toBe("May 4, 2026: 120 live, 3 missing");
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

  it("a strip is an image named by its title and described in words, with a tooltip per day", () => {
    const html = renderToStaticMarkup(createElement(UptimeStrip, { uptime, label: "https://mine.example/" }));
    expect(html).toMatch(/<svg role="img" aria-labelledby="[^"]+-t [^"]+-d"/);
    expect(html).toContain("4-day history of https://mine.example/</title>");
    expect(html).toContain(`<desc id=`);
    expect(describeUptime(uptime)).toBe("66.7 % live over 4 days. May 1, 2026: not tracked yet; May 2, 2026: live; May 3, 2026: missing; May 4, 2026: live.");
    expect(html.match(/<rect /g)).toHaveLength(4);
    expect(html).toContain("<title>May 3, 2026: Missing</title>");
    expect(html).toContain("66.7 % live");
    expect(html).not.toContain("<canvas");
  });

  it("the portfolio chart stacks states per day, with a tooltip per day and the numbers as a table", () => {
    const days = [day("2026-05-03", { live: 2, missing: 1 }), day("2026-05-04", { live: 3, pending: 1 })];
    const html = renderToStaticMarkup(createElement(PortfolioChart, { days }));
    expect(html).toMatch(/<svg role="img" aria-labelledby=/);
    expect(html).toContain("Tracked links by state at the end of each day, last 2 days</title>");
    expect(html).toContain("<title>May 3, 2026: 2 live, 1 missing</title>");
    expect(html.match(/data-state="live"/g)).toHaveLength(2);
    expect(html).toContain('data-state="pending"');
    expect(html).toContain("<table");
    expect(html).toContain('<th scope="row" class="py-1 pr-2 font-normal whitespace-nowrap">2026-05-04</th>');
    // The live bar of the second day is 3/5 of the height (the axis top is niceMax(4) = 5).
    expect(html).toMatch(/<rect x="11" y="64" width="8" height="96" class="[^"]*" data-state="live"/);
  });
});
