import type { Config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { DeniedHostError, GuardError, resolveChecked, type Resolver } from "@/lib/net/resolve";
import { effectivePort, isAllowListed } from "@/lib/net/url-policy";

/**
 * The network policy for a URL the product will contact later (a webhook endpoint), checked when it is
 * saved: the same deny list and address policy as the analyzer's first hop (decisions.md BLOCKED_URL).
 * The text was already accepted by parsePublicUrl (INVALID_URL). Every later request goes through
 * fetchPublic, which checks the address again at connect time.
 */

export type PublicUrlSettings = Pick<Config, "ALLOW_PRIVATE_HOSTS"> & Partial<Pick<Config, "DENY_HOSTS">>;

/** true when the URL's `host:port` is an ALLOW_PRIVATE_HOSTS entry (local testing only). */
export function isAllowListedUrl(url: URL, allowPrivateHosts: readonly string[]): boolean {
  return isAllowListed(url.hostname, effectivePort(url), allowPrivateHosts);
}

/**
 * Resolves the URL's host and refuses it when it is deny-listed or any address is not public.
 * A name that does not resolve now is not refused (`"unresolved"`): it has no address to judge, and
 * each request re-resolves it (the receiver may not be in DNS yet).
 * @throws ApiError BLOCKED_URL (403).
 */
export async function assertPublicUrl(
  url: URL,
  settings: PublicUrlSettings,
  options: { resolver?: Resolver } = {},
): Promise<"public" | "unresolved"> {
  try {
    await resolveChecked(url.hostname, effectivePort(url), {
      allowPrivateHosts: settings.ALLOW_PRIVATE_HOSTS,
      denyHosts: settings.DENY_HOSTS,
      resolver: options.resolver,
    });
    return "public";
  } catch (error) {
    if (error instanceof DeniedHostError)
      throw new ApiError("BLOCKED_URL", `The URL's host ${url.hostname} is on this service's deny list.`, {
        cause: error,
      });
    if (error instanceof GuardError && error.kind === "blocked")
      throw new ApiError("BLOCKED_URL", `The URL's host ${url.hostname} is not a public address.`, { cause: error });
    return "unresolved";
  }
}
