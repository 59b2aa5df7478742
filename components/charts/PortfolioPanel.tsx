import { Panel } from "@/components/analyzer/Panel";
import type { DailyStats } from "@/lib/schemas/stats";
import { totalOf } from "@/lib/charts/portfolio-bars";
import { PortfolioChart } from "./PortfolioChart";
import { WindowSwitch } from "./WindowSwitch";

/** The overview's "Portfolio over time": the stacked chart and its 30/90/365-day switch (links to ?days=). */
export function PortfolioPanel({
  stats,
  days,
  className = "",
}: {
  stats: DailyStats;
  days: number;
  className?: string;
}) {
  const empty = stats.days.every((day) => totalOf(day) === 0);
  return (
    <Panel
      id="portfolio"
      title="Portfolio over time"
      className={className}
      aside={<WindowSwitch current={days} hrefOf={(value) => `/app?days=${value}#portfolio`} />}
    >
      {empty ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No tracked links in the last {days} days. Once pages are monitored, their links&apos; states are drawn here,
          day by day.
        </p>
      ) : (
        <PortfolioChart days={stats.days} />
      )}
    </Panel>
  );
}
