import Link from "next/link";
import { AlertList } from "@/components/account/AlertList";
import { ALERT_TYPE_LABELS } from "@/components/account/alert-types";
import { Notice } from "@/components/account/ui";
import { Panel } from "@/components/analyzer/Panel";
import { pageContext } from "@/lib/auth/page-context";
import { alertFeed } from "@/lib/alerts/feed";
import { alertsQuerySchema } from "@/lib/schemas/alerts";

// /app/alerts — every alert of the team, newest first, filtered by type, a page at a time.
export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await pageContext("/app/alerts");
  const params = await searchParams;
  const type = typeof params.type === "string" && params.type ? params.type : undefined;
  const cursor = typeof params.cursor === "string" && params.cursor ? params.cursor : undefined;
  const query = alertsQuerySchema.safeParse({ type, cursor, limit: 50 });
  const feed = query.success ? await alertFeed(ctx, query.data) : null;
  const filterHref = (value: string | undefined) => (value ? `/app/alerts?type=${value}` : "/app/alerts");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Alerts</h1>
      <nav aria-label="Alert types" className="flex flex-wrap gap-2 text-sm">
        {[["", "All"] as const, ...ALERT_TYPE_LABELS.map(([value]) => [value, value.replace(/_/g, " ")] as const)].map(
          ([value, label]) => (
            <Link
              key={label}
              href={filterHref(value || undefined)}
              aria-current={(type ?? "") === value ? "page" : undefined}
              className="rounded-full px-3 py-1 ring-1 ring-slate-300 hover:bg-slate-100 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white aria-[current=page]:ring-blue-700 dark:ring-slate-700 dark:hover:bg-slate-800"
            >
              {label}
            </Link>
          ),
        )}
      </nav>
      <Panel id="alert-list" title={type ? `Alerts: ${type.replace(/_/g, " ")}` : "All alerts"}>
        {!feed ? (
          <Notice kind="error">That filter or page link is not valid.</Notice>
        ) : feed.items.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No alerts {type ? "of this type " : ""}yet. When a tracked link is removed, breaks, changes rel or anchor,
            or a monitored page fails or turns noindex, it shows up here (and in your email, as set under{" "}
            <Link href="/app/settings#notifications" className="text-blue-700 underline dark:text-blue-300">
              Settings
            </Link>
            ).
          </p>
        ) : (
          <AlertList items={feed.items} />
        )}
        {feed?.nextCursor && (
          <Link
            href={`/app/alerts?${new URLSearchParams({ ...(type ? { type } : {}), cursor: feed.nextCursor })}`}
            className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline dark:text-blue-300"
          >
            Older alerts →
          </Link>
        )}
      </Panel>
    </div>
  );
}
