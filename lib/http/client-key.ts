import { getConfig } from "../config";
import { clientKeyFor } from "../ratelimit";

/** Set by our server (server/main.ts) on every request, after deleting any copy the client sent. */
export const CLIENT_KEY_HEADER = "x-linklens-client-key";
export const TRUSTED_SERVER_FLAG = Symbol.for("linklens.trustedServer");

/**
 * The rate-limit bucket of a request. Under our own server the key comes from the socket address (and
 * TRUSTED_PROXY_HOPS), so a forged X-Forwarded-For cannot pick a bucket. Under plain `next dev`/`next
 * start` there is no socket address in a route handler; Next fills X-Forwarded-For from the socket only
 * when the client sent none, so the rightmost entry is the best there is (documented as unsupported).
 */
export function clientKeyOf(request: Request): string {
  const underTrustedServer = (globalThis as Record<symbol, unknown>)[TRUSTED_SERVER_FLAG] === true;
  const fromServer = request.headers.get(CLIENT_KEY_HEADER);
  if (underTrustedServer && fromServer) return fromServer;
  const forwardedFor = request.headers.get("x-forwarded-for");
  const rightmost = forwardedFor?.split(",").pop()?.trim();
  return clientKeyFor({ socketAddress: rightmost, forwardedFor, trustedProxyHops: getConfig().TRUSTED_PROXY_HOPS });
}
