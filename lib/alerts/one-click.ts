import { ApiError } from "../errors";
import { resolveAuthSecret } from "../db/secret";
import { getConfig } from "../config";
import { database } from "../db";
import { applyMuteAction } from "./mute";
import { verifyMuteToken } from "./tokens";

/**
 * The signed one-click links of alert emails (the /mute page and POST /api/mute): verify the token,
 * apply it. A bad signature is 400; a token whose monitor or membership is gone is 404.
 */
export async function muteFromToken(token: string | null, undo: boolean) {
  const action = token ? verifyMuteToken(resolveAuthSecret(getConfig()), token) : null;
  if (!action) throw new ApiError("INVALID_REQUEST", "token: this link is not valid.", { hint: "Use the link of the email unchanged; change notification settings in the app under Settings." });
  const result = await applyMuteAction(database().db, action, undo);
  if (!result) throw new ApiError("NOT_FOUND", "The monitor or the team of this link no longer exists.", { hint: "Nothing to mute: you get no emails about it." });
  return result;
}
