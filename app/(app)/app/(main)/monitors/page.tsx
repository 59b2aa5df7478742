import { answerOf, MONITORS_PATH } from "@/components/account/answers";
import { MonitorsPanel } from "@/components/account/monitors/MonitorsPanel";
import { pageContext } from "@/lib/auth/page-context";
import { listMonitors } from "@/lib/monitor/monitors";
import { pageOf } from "@/lib/schemas/common";
import { MonitorSchema } from "@/lib/schemas/monitors";

// /app/monitors — monitored pages: add one with its links or import a CSV; the table of pages.
export default async function MonitorsPage() {
  const ctx = await pageContext("/app/monitors");
  const monitors = answerOf(MONITORS_PATH, pageOf(MonitorSchema), await listMonitors(ctx, { limit: 50 }));
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Monitored pages</h1>
      <MonitorsPanel canEdit={ctx.role !== "viewer"} initial={monitors} />
    </div>
  );
}
