import { unsubscribeFromToken } from "@/lib/reports/unsubscribe";
import { formToken } from "@/lib/reports/form";
import { ApiError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// POST /report-emails/unsubscribe/submit — the unsubscribe page's button, a plain HTML form holding
// `token`. Unsubscribes, then 303 back to the page, which shows the state. A GET of the email's link
// never acts (mail scanners open links); the mail client's one-click POST goes to /api/report-emails/unsubscribe.
export async function POST(request: Request): Promise<Response> {
  const token = await formToken(request);
  if (token) {
    try {
      await unsubscribeFromToken(token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const query = token ? `?${new URLSearchParams({ token })}` : "";
  return new Response(null, {
    status: 303,
    headers: { Location: `/report-emails/unsubscribe${query}`, "Cache-Control": "no-store" },
  });
}
