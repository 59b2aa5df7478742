import { answerOf, linksPath, PAGE_NAMES_PATH, uptimeAnswers } from "@/components/account/answers";
import { LinksPanel } from "@/components/account/monitors/LinksPanel";
import { pageContext } from "@/lib/auth/page-context";
import { listLinks } from "@/lib/monitor/links";
import { listMonitors } from "@/lib/monitor/monitors";
import { pageOf } from "@/lib/schemas/common";
import { linkListSchema, MonitorSchema, TrackedLinkSchema } from "@/lib/schemas/monitors";
import { linksUptime } from "@/lib/stats/link-uptime";

const FILTERS = ["state", "verdict", "tag", "monitorId", "q"] as const;

// /app/links — every tracked link of the team with filters (state, verdict, tag, page, text): a link builder's view.
export default async function LinksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await pageContext("/app/links");
  const given = await searchParams;
  // Links from the overview's counts and from a monitor open the list already filtered.
  const filters = Object.fromEntries(
    FILTERS.flatMap((key) => (typeof given[key] === "string" ? [[key, given[key]]] : [])),
  );
  const path = linksPath({ state: "", verdict: "", tag: "", monitorId: "", q: "", ...filters });
  // The list's request read as GET /api/account/links reads it; filters it refuses leave the list to the
  // browser, which shows the API's words about them.
  const query = linkListSchema.safeParse(Object.fromEntries(new URL(path, "http://localhost").searchParams));
  let links;
  if (query.success) {
    const { limit, cursor, ...where } = query.data;
    links = answerOf(path, pageOf(TrackedLinkSchema), await listLinks(ctx, where, { limit, cursor }));
  }
  const linkIds = links?.data.items.map((link) => link.id) ?? [];
  const [pages, uptime] = await Promise.all([listMonitors(ctx, { limit: 100 }), linksUptime(ctx, linkIds, 90)]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Tracked links</h1>
      <LinksPanel
        canExport={ctx.role !== "viewer"}
        filters={filters}
        initial={{
          links,
          pages: answerOf(PAGE_NAMES_PATH, pageOf(MonitorSchema), pages),
          uptime: uptimeAnswers(linkIds, uptime),
        }}
      />
    </div>
  );
}
