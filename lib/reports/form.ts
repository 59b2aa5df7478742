import { ApiError } from "../errors";
import { readBodyText } from "../http/read-body";

/** A token is under 1,000 characters (./tokens.ts); a form holding one is far below this. */
const MAX_FORM_BYTES = 4 * 1024;

/** The `token` field of the confirmation and unsubscribe pages' forms (urlencoded), or null. */
export async function formToken(request: Request): Promise<string | null> {
  const text = await readBodyText(
    request,
    MAX_FORM_BYTES,
    () => new ApiError("PAYLOAD_TOO_LARGE", "form too large"),
  ).catch(() => "");
  return new URLSearchParams(text).get("token") || null;
}
