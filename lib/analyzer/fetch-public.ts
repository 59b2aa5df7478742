import { request, type Dispatcher } from "undici";
import type { Config } from "@/lib/config";
import { createGuardedDispatcher, isBlockedConnection } from "@/lib/net/guarded-dispatcher";
import { GuardError, isDeniedHost, type Resolver } from "@/lib/net/resolve";
import { isAllowListed, effectivePort, literalHostProblem, PUBLIC_PORTS } from "@/lib/net/url-policy";
import { BOT_USER_AGENT } from "./user-agent";

/**
 * One HTTP request to a public address, for the product's own fetches that are not a page render: a
 * robots.txt, a webhook delivery. Every connection goes through the guarded dispatcher (the address
 * policy at connect time, pinned to the checked IP: DNS rebinding cannot slip in), every redirect hop is
 * checked like the first URL (http and https only, public ports), the whole exchange has a deadline,
 * and the body is read up to a cap and no further (an endless body costs at most the cap).
 *
 * The answer is an outcome, never a throw: callers decide what "blocked" or "timeout" means for them
 * (robots.txt: unavailable; a webhook: a failed attempt).
 */

export interface FetchPublicOptions {
  settings: Pick<Config, "ALLOW_PRIVATE_HOSTS"> & Partial<Pick<Config, "DENY_HOSTS">>;
  method?: "GET" | "POST" | "HEAD";
  headers?: Record<string, string>;
  body?: string;
  /** Redirects followed (each hop checked); 0: a 3xx is the answer. */
  maxRedirects: number;
  /** Deadline of the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Bytes of the body kept; the rest is not read. */
  maxBodyBytes: number;
  signal?: AbortSignal;
  /** Tests: a resolver that maps names to loopback (the guard still applies ALLOW_PRIVATE_HOSTS). */
  resolver?: Resolver;
}

export type FetchPublicOutcome =
  | { kind: "response"; status: number; headers: Record<string, string>; body: Buffer; truncated: boolean; url: string }
  /** The address policy refused a host (the first URL's or a redirect's), or a redirect left http(s). */
  | { kind: "blocked"; url: string; message: string; redirected: boolean }
  | { kind: "timeout"; url: string }
  /** DNS, connection or TLS failure, or the answer was cut. */
  | { kind: "unreachable"; url: string; message: string }
  | { kind: "too_many_redirects"; url: string };

/** Why `url` may not be fetched at all (null when it may): scheme, port, literal host, deny list. */
function policyProblem(url: URL, options: FetchPublicOptions): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol.replace(/:$/, "")} is not http(s)`;
  if (url.username || url.password) return "credentials in the URL";
  const port = effectivePort(url);
  const allowed = isAllowListed(url.hostname, port, options.settings.ALLOW_PRIVATE_HOSTS);
  if (!PUBLIC_PORTS.has(port) && !allowed) return `port ${port} is not allowed`;
  if (isDeniedHost(url.hostname, options.settings.DENY_HOSTS)) return `${url.hostname} is on the deny list`;
  return allowed ? null : literalHostProblem(url.hostname);
}

/** Reads at most `max` bytes of a body, then stops reading (the socket is destroyed). */
async function readCapped(
  body: Dispatcher.ResponseData["body"],
  max: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    if (size + buffer.length > max) {
      chunks.push(buffer.subarray(0, max - size));
      body.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function headersOf(raw: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  return out;
}

export async function fetchPublic(start: URL, options: FetchPublicOptions): Promise<FetchPublicOutcome> {
  const dispatcher = createGuardedDispatcher({
    allowPrivateHosts: options.settings.ALLOW_PRIVATE_HOSTS,
    denyHosts: options.settings.DENY_HOSTS,
    resolver: options.resolver,
    connectionsPerOrigin: 1,
  });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let url = start;
  try {
    for (let hop = 0; ; hop += 1) {
      const problem = policyProblem(url, options);
      if (problem) return { kind: "blocked", url: url.href, message: problem, redirected: hop > 0 };
      const response = await request(url, {
        method: options.method ?? "GET",
        headers: { "user-agent": BOT_USER_AGENT, ...options.headers },
        body: options.body,
        dispatcher,
        signal,
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      const location = response.headers.location;
      if (
        response.statusCode >= 300 &&
        response.statusCode < 400 &&
        typeof location === "string" &&
        options.maxRedirects > 0
      ) {
        await response.body.dump().catch(() => undefined);
        if (hop >= options.maxRedirects) return { kind: "too_many_redirects", url: url.href };
        const next = URL.parse(location, url);
        if (!next) return { kind: "blocked", url: location, message: "the redirect is not a URL", redirected: true };
        url = next;
        continue;
      }
      const { body, truncated } = await readCapped(response.body, options.maxBodyBytes);
      return {
        kind: "response",
        status: response.statusCode,
        headers: headersOf(response.headers),
        body,
        truncated,
        url: url.href,
      };
    }
  } catch (error) {
    if (deadline.aborted) return { kind: "timeout", url: url.href };
    if (isBlockedConnection(error) || (error instanceof GuardError && error.kind === "blocked")) {
      return {
        kind: "blocked",
        url: url.href,
        message: error instanceof Error ? error.message : "blocked",
        redirected: url !== start,
      };
    }
    return { kind: "unreachable", url: url.href, message: error instanceof Error ? error.message : String(error) };
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}
