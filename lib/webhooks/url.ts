import { isAllowListedUrl, parsePublicUrl } from "../analyzer";
import { ApiError } from "../errors";

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
      hint: "Use the https:// address your receiver (or Slack) gave you.",
    });
  }
  return url;
}
