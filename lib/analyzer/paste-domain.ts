import { ApiError } from "@/lib/errors";

/**
 * Paste mode's `domain` as decisions.md defines it: a bare hostname, lowercased, IDN to punycode (the
 * WHATWG URL parser does both). Anything that is not just a hostname (scheme, path, port, credentials,
 * spaces) is refused rather than guessed at. Here, below the API, because the worker thread reads paste
 * bodies itself (paste-body.ts); lib/api/paste-request-domain.ts adds the default.
 * @throws ApiError INVALID_REQUEST
 */
export function normalizePasteHostname(raw: string): string {
  const trimmed = raw.trim();
  const invalid = () =>
    new ApiError("INVALID_REQUEST", `domain: "${trimmed.slice(0, 100)}" is not a valid hostname.`, {
      hint: 'Send a bare hostname such as "example.com" (no scheme, path or port), or leave domain out.',
    });
  if (trimmed === "" || trimmed.length > 253 || /[\s/\\?#@:[\]%]/.test(trimmed)) throw invalid();
  let hostname: string;
  try {
    hostname = new URL(`https://${trimmed}/`).hostname;
  } catch {
    throw invalid();
  }
  hostname = hostname.replace(/\.$/, "");
  if (hostname === "" || hostname.startsWith(".") || hostname.includes("..") || hostname.length > 253) throw invalid();
  if (hostname.split(".").some((label) => label.length > 63)) throw invalid();
  return hostname;
}
