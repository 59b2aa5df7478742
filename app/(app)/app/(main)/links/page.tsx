import { LinksPanel } from "@/components/account/monitors/LinksPanel";
import { pageContext } from "@/lib/auth/page-context";

// /app/links — every tracked link of the team with filters (state, verdict, tag, page, text): a link builder's view.
export default async function LinksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await pageContext("/app/links");
  const given = await searchParams;
  // Links from the overview's counts and from a monitor open the list already filtered.
  const initial = Object.fromEntries(
    ["state", "verdict", "tag", "monitorId", "q"].flatMap((key) =>
      typeof given[key] === "string" ? [[key, given[key]]] : [],
    ),
  );
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Tracked links</h1>
      <LinksPanel canExport={ctx.role !== "viewer"} initial={initial} />
    </div>
  );
}
