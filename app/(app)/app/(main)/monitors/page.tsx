import { MonitorsPanel } from "@/components/account/monitors/MonitorsPanel";
import { pageContext } from "@/lib/auth/page-context";

// /app/monitors — monitored pages: add one with its links or import a CSV; the table of pages.
export default async function MonitorsPage() {
  const ctx = await pageContext("/app/monitors");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Monitored pages</h1>
      <MonitorsPanel canEdit={ctx.role !== "viewer"} />
    </div>
  );
}
