import { muteFromToken } from "@/lib/alerts/one-click";
import { errorResponse, jsonResponse, methodNotAllowed } from "@/lib/http/response";

export const dynamic = "force-dynamic";

// POST /api/mute?token=… — RFC 8058 one-click unsubscribe from an alert email's List-Unsubscribe header
// (the mail client posts "List-Unsubscribe=One-Click"; `&undo=1` undoes). No session: the signed token
// names the recipient and the monitor, and can do nothing else. A GET is 405: only POST acts.
export async function POST(request: Request): Promise<Response> {
  try {
    const url = new URL(request.url);
    const result = await muteFromToken(url.searchParams.get("token"), url.searchParams.get("undo") === "1");
    return jsonResponse(
      { muted: result.muted, kind: result.kind, pageUrl: result.pageUrl },
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
