import type { FetchPublicOutcome } from "../analyzer";
import type { ReceiverAnswer } from "./channels/channel";

/**
 * What one attempt's network outcome means for a webhook (webhooks.md "Delivery"): an answer within the
 * deadline that the endpoint's channel counts as taken (a 2xx; Telegram also asks for `"ok": true`, and
 * Teams refuses the 200 that says its delivery failed) is success; anything
 * else — a 3xx (redirects are never followed), 4xx, 5xx, no answer in time, a closed connection, a host
 * that resolves to a private address — is a failure with a message a person can act on. The answer's
 * status and at most 1 KiB of its body are kept. Pure.
 */

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_BYTES = 1024;

export interface AttemptResult {
  ok: boolean;
  /** The HTTP status of the answer; null when there was none. */
  responseStatus: number | null;
  /** At most RESPONSE_BODY_BYTES of the answer's body, as text; null when there was no answer. */
  responseBody: string | null;
  /** Why it failed; null on success. */
  error: string | null;
}

const short = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The success rule of webhooks.md: any 2xx status, whatever the body says. */
export function answeredWith2xx(answer: ReceiverAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** `delivered`: the endpoint's channel's rule (a channel may also read the body, as Telegram's `ok: true` does). */
export function attemptResult(
  outcome: FetchPublicOutcome,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
  delivered: (answer: ReceiverAnswer) => boolean = answeredWith2xx,
): AttemptResult {
  const none = { responseStatus: null, responseBody: null };
  switch (outcome.kind) {
    case "response": {
      // A cut may split a UTF-8 sequence: the decoder shows it as U+FFFD, never as a broken string.
      const answer = {
        responseStatus: outcome.status,
        responseBody: outcome.body.subarray(0, RESPONSE_BODY_BYTES).toString("utf8"),
      };
      if (delivered({ status: outcome.status, body: answer.responseBody })) return { ok: true, ...answer, error: null };
      if (outcome.status >= 300 && outcome.status < 400) {
        const location = outcome.headers.location;
        return {
          ok: false,
          ...answer,
          error: `HTTP ${outcome.status}: redirects are not followed${location ? ` (Location: ${short(location)})` : ""}. Use the final URL.`,
        };
      }
      if (answeredWith2xx({ status: outcome.status, body: answer.responseBody }))
        return {
          ok: false,
          ...answer,
          error: `HTTP ${outcome.status}, but the answer does not say the message was taken (see the answer).`,
        };
      return { ok: false, ...answer, error: `HTTP ${outcome.status}: the receiver did not accept the delivery.` };
    }
    case "timeout":
      return { ok: false, ...none, error: `No answer within ${Math.round(timeoutMs / 1000)} s.` };
    case "blocked":
      return { ok: false, ...none, error: `Not sent: ${short(outcome.message).replace(/\.?$/, ".")}` };
    case "too_many_redirects":
      return { ok: false, ...none, error: "Redirects are not followed. Use the final URL." };
    case "unreachable":
      return {
        ok: false,
        ...none,
        error: `Could not connect, or the connection closed before an answer (${short(outcome.message, 120)}).`,
      };
  }
}
