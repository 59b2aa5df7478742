import { muteFromToken } from "@/lib/alerts/one-click";
import { readBodyText } from "@/lib/http/read-body";
import { ApiError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** A token is under 1,000 characters (lib/alerts/tokens.ts); a form holding one is far below this. */
const MAX_FORM_BYTES = 4 * 1024;

// POST /mute/confirm — the /mute page's button, a plain HTML form (works without JavaScript): `token`, and
// `undo=1` to undo. Mutes, then 303 back to the page, which shows the state (a link that does not work
// says so there, so a bad token is not an error here). A GET of an email's link never reaches this.
export async function POST(request: Request): Promise<Response> {
  const form = new URLSearchParams(
    await readBodyText(request, MAX_FORM_BYTES, () => new ApiError("PAYLOAD_TOO_LARGE", "form too large")).catch(
      () => "",
    ),
  );
  const token = form.get("token");
  const undo = form.get("undo") === "1";
  if (token) {
    try {
      await muteFromToken(token, undo);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const back = new URLSearchParams(token ? { token, ...(undo ? { done: "1" } : {}) } : {});
  return new Response(null, {
    status: 303,
    headers: { Location: `/mute${back.size > 0 ? `?${back}` : ""}`, "Cache-Control": "no-store" },
  });
}
