import { MonitorDetail } from "@/components/account/monitors/MonitorDetail";
import { pageContext } from "@/lib/auth/page-context";

// /app/monitors/{id} — one monitored page: tracked links with states, timeline, check now, edits.
export default async function MonitorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await pageContext(`/app/monitors/${encodeURIComponent(id)}`);
  return <MonitorDetail id={id} canEdit={ctx.role !== "viewer"} />;
}
