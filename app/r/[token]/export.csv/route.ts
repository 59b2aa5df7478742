import { processRuntime } from "@/lib/db/runtime";
import { exportReport } from "@/lib/shares/export";
import { SHARE_PAGE_HEADERS } from "@/lib/shares/headers";
import { openShare } from "@/lib/shares/open";

export const dynamic = "force-dynamic";

const notFound = () =>
  new Response("This report is not available: the link may be mistyped, revoked or expired.\n", {
    status: 404,
    headers: {
      ...SHARE_PAGE_HEADERS,
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
    },
  });

// GET /r/{token}/export.csv — the client report's rows as a CSV download (formula-safe); 404 like the page.
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const runtime = processRuntime();
  const share = await openShare(runtime, (await params).token);
  const file = share ? await exportReport(runtime, share) : null;
  if (!file) return notFound();
  return new Response(file.body, {
    status: 200,
    headers: {
      ...SHARE_PAGE_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
