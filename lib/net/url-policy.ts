import { ApiError } from "@/lib/errors";
import { MAX_URL_LENGTH } from "@/lib/limits";
import { isIpLiteral, isPublicAddress } from "@/lib/net/address-policy";

/**
 * The URL policy: what a submitted URL must look like before LinkLens spends any work on it.
 * It only looks at the text; whether a host name *resolves* to a public address is resolve.ts's job.
 */

export const PUBLIC_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** Names that never leave the local network (RFC 6761, RFC 6762, RFC 8375, and cloud-internal zones). */
const NON_PUBLIC_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".localdomain"];
const NON_PUBLIC_NAMES = new Set(["localhost", "localhost.localdomain", "home.arpa"]);

/** The port a connection to `url` really uses (URL.port is "" for the scheme default). */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" || url.protocol === "wss:" ? 443 : 80;
}

/** `host:port` the way ALLOW_PRIVATE_HOSTS spells it: lowercased hostname, IPv6 in brackets. */
export function hostPortKey(hostname: string, port: number): string {
  let host = hostname.toLowerCase();
  if (host.includes(":") && !host.startsWith("[")) host = `[${host}]`;
  return `${host}:${port}`;
}

/** true when `hostname:port` is on the operator's allow list (tests and local development only). */
export function isAllowListed(hostname: string, port: number, allowPrivateHosts: readonly string[]): boolean {
  if (allowPrivateHosts.length === 0) return false;
  const key = hostPortKey(hostname, port);
  // A trailing dot names the same host; do not let `localhost.` dodge an allow list written without it
  // (nor the reverse): compare both spellings.
  const undotted = hostPortKey(hostname.replace(/\.+$/, ""), port);
  return allowPrivateHosts.includes(key) || allowPrivateHosts.includes(undotted);
}

/**
 * Why `hostname` is non-public by its spelling alone, or null when only DNS can tell.
 * `hostname` is URL.hostname (IPv6 keeps its brackets).
 */
export function literalHostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return "The URL has no host.";
  if (isIpLiteral(host)) {
    return isPublicAddress(host) ? null : `${hostname} is not a public IP address.`;
  }
  if (NON_PUBLIC_NAMES.has(host) || NON_PUBLIC_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `${hostname} is a local host name, not a public web site.`;
  }
  return null;
}

/**
 * Parses a URL submitted for URL mode and applies the URL policy of decisions.md.
 *
 * @param raw the `url` field as the client sent it.
 * @param allowPrivateHosts lowercased `host:port` entries (ALLOW_PRIVATE_HOSTS) exempt from the
 *   port and host checks.
 * @returns the parsed URL (WHATWG-normalised: `http://0x7f.1/` has hostname `127.0.0.1`).
 * @throws ApiError INVALID_URL with a message saying which rule failed.
 */
export function parsePublicUrl(raw: string, allowPrivateHosts: readonly string[]): URL {
  const invalid = (message: string) => new ApiError("INVALID_URL", message);
  if (typeof raw !== "string" || raw.trim() === "") throw invalid("url must be a non-empty string.");
  if (raw.length > MAX_URL_LENGTH) throw invalid(`The URL is longer than ${MAX_URL_LENGTH} characters.`);

  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid("The URL is not an absolute URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`Only http and https URLs can be analysed, not ${url.protocol.replace(/:$/, "")}.`);
  }
  // Normalisation can lengthen the text (percent-encoding, punycode); the limit applies to what we fetch.
  if (url.href.length > MAX_URL_LENGTH) throw invalid(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  if (url.username !== "" || url.password !== "") throw invalid("The URL must not contain a user name or password.");

  const port = effectivePort(url);
  if (isAllowListed(url.hostname, port, allowPrivateHosts)) return url;

  if (!PUBLIC_PORTS.has(port)) throw invalid(`Port ${port} is not allowed; use port 80 or 443.`);
  const problem = literalHostProblem(url.hostname);
  if (problem) throw invalid(problem);
  return url;
}
