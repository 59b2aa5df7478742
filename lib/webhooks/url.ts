import { isAllowListedUrl, parsePublicUrl } from "../analyzer";
import { ApiError } from "../errors";
import type { Channel } from "./channels";

/**
 * The text rules of an endpoint URL (webhooks.md): the analyzer's URL policy (absolute, at most 2,048
 * characters, no credentials, ports 80/443, no literally private host: 400 INVALID_URL) plus https only
 * — a signed alert over plain http can be read and replayed on the way — except for ALLOW_PRIVATE_HOSTS
 * entries (local receivers in tests). Whether the host resolves to a public address is checked after
 * this (assertPublicUrl) and again at every attempt. Pure.
 */
export function parseWebhookUrl(raw: string, allowPrivateHosts: readonly string[]): URL {
  const url = parsePublicUrl(raw, allowPrivateHosts);
  if (url.protocol !== "https:" && !isAllowListedUrl(url, allowPrivateHosts)) {
    throw new ApiError("INVALID_URL", "A webhook URL must use https.", {
      hint: "Use the https:// address your receiver (or your chat app) gave you.",
    });
  }
  return url;
}

/**
 * An endpoint URL for `channel`: the shared rules, then the channel's own (what its service's URLs look
 * like; refused: 400 INVALID_URL with the expected form as the hint). ALLOW_PRIVATE_HOSTS entries pass
 * every channel's rule, as reports-and-channels.md says, so tests reach every kind on local receivers.
 */
export function parseChannelUrl(channel: Channel, raw: string, allowPrivateHosts: readonly string[]): URL {
  const url = parseWebhookUrl(raw, allowPrivateHosts);
  if (isAllowListedUrl(url, allowPrivateHosts) || channel.acceptsUrl(url)) return url;
  const { label, urlHint, urlNote } = channel.info;
  throw new ApiError("INVALID_URL", `This is not a ${label} webhook URL.`, {
    hint: `A ${label} webhook URL looks like ${urlHint}${urlNote ? `; ${urlNote}` : ""}`,
  });
}
