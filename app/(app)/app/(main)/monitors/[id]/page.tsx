import { notFound } from "next/navigation";
import { answerOf, checksPath, monitorPath, uptimeAnswers } from "@/components/account/answers";
import { MonitorDetail } from "@/components/account/monitors/MonitorDetail";
import { pageContext } from "@/lib/auth/page-context";
import { ApiError } from "@/lib/errors";
import { listChecks } from "@/lib/monitor/check-history";
import { getMonitor } from "@/lib/monitor/monitors";
import { recentStateChanges } from "@/lib/monitor/state-changes";
import { pageOf } from "@/lib/schemas/common";
import { CheckSchema, MonitorSchema, TransitionSchema } from "@/lib/schemas/monitors";
import { linksUptime } from "@/lib/stats/link-uptime";

/** State changes a link shows in the timeline (its newest). */
const CHANGES_PER_LINK = 50;

// /app/monitors/{id} — one monitored page: tracked links with states, timeline, check now, edits.
export default async function MonitorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await pageContext(`/app/monitors/${encodeURIComponent(id)}`);
  const monitor = MonitorSchema.parse(
    await getMonitor(ctx, id).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
      throw error;
    }),
  );
  const linkIds = monitor.links.map((link) => link.id);
  const [checks, changes, uptime] = await Promise.all([
    listChecks(ctx, id, { limit: 50 }),
    recentStateChanges(ctx, linkIds, CHANGES_PER_LINK),
    linksUptime(ctx, linkIds, 90),
  ]);
  return (
    <MonitorDetail
      id={id}
      canEdit={ctx.role !== "viewer"}
      initial={{
        monitor: { path: monitorPath(id), data: monitor },
        checks: answerOf(checksPath(id), pageOf(CheckSchema), checks),
        uptime: uptimeAnswers(linkIds, uptime),
        changes: TransitionSchema.array().parse(changes),
      }}
    />
  );
}
