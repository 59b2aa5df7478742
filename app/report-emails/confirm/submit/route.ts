import { confirmFromToken } from "@/lib/reports/consent";
import { formToken } from "@/lib/reports/form";
import { ApiError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// POST /report-emails/confirm/submit — the confirmation page's button, a plain HTML form (works without
// JavaScript) holding `token`. Confirms, then 303 back to the page, which shows the state (a link that
// does not work says so there, so a bad token is not an error here). Opening the email's link never acts.
export async function POST(request: Request): Promise<Response> {
  const token = await formToken(request);
  if (token) {
    try {
      await confirmFromToken(token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const query = token ? `?${new URLSearchParams({ token })}` : "";
  return new Response(null, {
    status: 303,
    headers: { Location: `/report-emails/confirm${query}`, "Cache-Control": "no-store" },
  });
}
