import { ApiError } from "../errors";
import { resolveAuthSecret } from "../db/secret";
import { processRuntime, type Runtime } from "../db/runtime";
import { applyMuteAction, muteStatus, type MuteStatus } from "./mute";
import { verifyMuteToken, type MuteAction } from "./tokens";

/**
 * The signed one-click links of alert emails: the /mute page reads (a GET changes nothing: mail scanners
 * open links), its form and POST /api/mute (RFC 8058) apply. A bad signature is 400; a token whose
 * monitor or membership is gone is 404.
 */

function actionOf(token: string | null, runtime: Runtime): MuteAction {
  const action = token ? verifyMuteToken(resolveAuthSecret(runtime.settings), token) : null;
  if (!action)
    throw new ApiError("INVALID_REQUEST", "token: this link is not valid.", {
      hint: "Use the link of the email unchanged; change notification settings in the app under Settings.",
    });
  return action;
}

function found(status: MuteStatus | null): MuteStatus {
  if (!status)
    throw new ApiError("NOT_FOUND", "The monitor or the team of this link no longer exists.", {
      hint: "Nothing to mute: you get no emails about it.",
    });
  return status;
}

/** What the link would do and whether it is in effect; changes nothing. */
export async function muteStatusFromToken(
  token: string | null,
  runtime: Runtime = processRuntime(),
): Promise<MuteStatus> {
  return found(await muteStatus(runtime.db, actionOf(token, runtime)));
}

/** Mutes (or with `undo` unmutes) what the link names. */
export async function muteFromToken(
  token: string | null,
  undo: boolean,
  runtime: Runtime = processRuntime(),
): Promise<MuteStatus> {
  return found(await applyMuteAction(runtime.db, actionOf(token, runtime), undo));
}
