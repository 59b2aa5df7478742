import { unsubscribeFromToken } from "@/lib/reports/unsubscribe";
import { errorResponse, jsonResponse, methodNotAllowed } from "@/lib/http/response";

export const dynamic = "force-dynamic";

// POST /api/report-emails/unsubscribe?token=… — RFC 8058 one-click unsubscribe from a scheduled report
// email's List-Unsubscribe header (the mail client posts "List-Unsubscribe=One-Click"). No session: the
// signed token names one address and one share, and can do nothing else. A GET is 405: only POST acts.
export async function POST(request: Request): Promise<Response> {
  try {
    const result = await unsubscribeFromToken(new URL(request.url).searchParams.get("token"));
    return jsonResponse(
      { unsubscribed: !result.subscribed, email: result.email, report: result.reportTitle },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    return errorResponse(error, request);
  }
}

async function notAllowed(request: Request): Promise<Response> {
  return methodNotAllowed(request, ["POST"]);
}

export {
  notAllowed as GET,
  notAllowed as HEAD,
  notAllowed as PUT,
  notAllowed as PATCH,
  notAllowed as DELETE,
  notAllowed as OPTIONS,
};
