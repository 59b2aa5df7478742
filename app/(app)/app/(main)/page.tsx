import Link from "next/link";
import { AlertList } from "@/components/account/AlertList";
import { Panel } from "@/components/analyzer/Panel";
import { pageContext } from "@/lib/auth/page-context";
import { alertFeed } from "@/lib/alerts/feed";
import { listAudits } from "@/lib/account/audits";
import { monitoringCounts } from "@/lib/monitor/overview";
import { PortfolioPanel } from "@/components/charts/PortfolioPanel";
import { HISTORY_WINDOWS } from "@/lib/schemas/stats";
import { dailyStats } from "@/lib/stats/daily-query";

// /app — the overview: the portfolio over time, tracked links by state, the latest alerts and audits. An
// empty panel says what to do first (a new team has nothing yet).
export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await pageContext("/app");
  // ?days=30|90|365 picks the chart's period (plain links, so the switch works without JavaScript).
  const asked = (await searchParams).days;
  const days = Number((HISTORY_WINDOWS as readonly unknown[]).includes(asked) ? asked : "30");
  const portfolio = await dailyStats(ctx, days);
  const canEdit = ctx.role !== "viewer";
  const counts = await monitoringCounts(ctx);
  const tiles = [
    { label: "Live", value: counts.links.live, href: "/app/links?state=live" },
    { label: "Missing", value: counts.links.missing, href: "/app/links?state=missing" },
    { label: "Broken", value: counts.links.broken, href: "/app/links?state=broken" },
    { label: "Mismatched", value: counts.links.mismatched, href: "/app/links" },
    { label: "Page errors", value: counts.pages.pageErrors, href: "/app/monitors" },
  ];
  const latest = await alertFeed(ctx, { limit: 5 });
  const audits = await listAudits(ctx, { limit: 3 });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{ctx.organization.name}</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          You are {ctx.role === "admin" || ctx.role === "owner" ? "an" : "a"} {ctx.role} of this team.
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Panel id="audits" title="Saved audits">
          {audits.items.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              No saved audits yet.{" "}
              {canEdit
                ? "Audit a URL or pasted HTML; it is saved for your team, with your domain groups applied."
                : "Members of your team will save audits here."}
            </p>
          ) : (
            <ul className="space-y-1 text-sm">
              {audits.items.map((audit) => (
                <li key={audit.id} className="truncate">
                  <Link href={`/app/audits/${audit.id}`} className="text-blue-700 hover:underline dark:text-blue-300">
                    {audit.title ?? audit.url}
                  </Link>{" "}
                  <span className="text-slate-500 dark:text-slate-400">· {audit.stats.total} links</span>
                </li>
              ))}
            </ul>
          )}
          <Link
            href="/app/audits"
            className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            {canEdit ? "Open audits →" : "See audits →"}
          </Link>
        </Panel>
        <Panel id="monitors" title="Monitored pages">
          {counts.pages.total === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Nothing is monitored yet.{" "}
              {canEdit
                ? "Add the pages that carry your links, or import them from a CSV."
                : "Members of your team add the pages to watch."}
            </p>
          ) : (
            // As many 5rem tiles a row as fit: five on a laptop, three then two on a phone ("Mismatched" needs the width).
            <dl
              className="grid grid-cols-[repeat(auto-fit,minmax(5rem,1fr))] gap-2 text-center"
              data-testid="monitoring-counts"
            >
              {tiles.map((tile) => (
                <div
                  key={tile.label}
                  className="rounded-md bg-slate-50 px-1 py-2 ring-1 ring-slate-200 dark:bg-slate-800/60 dark:ring-slate-700"
                >
                  <dt className="text-xs text-slate-600 dark:text-slate-400">{tile.label}</dt>
                  <dd className="text-lg font-semibold">
                    <Link href={tile.href} className="hover:underline">
                      {tile.value}
                    </Link>
                  </dd>
                </div>
              ))}
            </dl>
          )}
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {counts.links.total} tracked links on {counts.pages.total} pages
            {counts.links.pending > 0 ? `, ${counts.links.pending} not checked yet` : ""}.
          </p>
          <span className="mt-3 flex gap-4 text-sm font-medium">
            <Link href="/app/monitors" className="text-blue-700 hover:underline dark:text-blue-300">
              Open monitors →
            </Link>
            <Link href="/app/links" className="text-blue-700 hover:underline dark:text-blue-300">
              All tracked links →
            </Link>
          </span>
        </Panel>
        <PortfolioPanel stats={portfolio} days={days} className="md:col-span-2" />
        <Panel
          id="latest-alerts"
          title="Latest alerts"
          className="md:col-span-2"
          aside={
            <Link href="/app/alerts" className="text-sm font-medium text-blue-700 hover:underline dark:text-blue-300">
              All alerts →
            </Link>
          }
        >
          {latest.items.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              No alerts yet: every removed, broken or changed tracked link will be listed here and emailed to you.
            </p>
          ) : (
            <AlertList items={latest.items} compact />
          )}
        </Panel>
        <Panel id="team" title="Team">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {ctx.role === "owner" || ctx.role === "admin"
              ? "Invite colleagues and choose what each may do."
              : "See who is on your team."}
          </p>
          <Link
            href="/app/team"
            className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            Open team →
          </Link>
        </Panel>
        <Panel id="settings" title="Settings">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Your profile, password, signed-in devices and email delivery.
          </p>
          <Link
            href="/app/settings"
            className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            Open settings →
          </Link>
        </Panel>
      </div>
    </div>
  );
}
