import { ApiError } from "@/lib/errors";
import { DEFAULT_PASTE_DOMAIN } from "./schemas";

/**
 * Normalizes the paste-mode `domain`: a bare hostname, lowercased, IDN to punycode (the WHATWG URL
 * parser does both). Anything that is not just a hostname (scheme, path, port, credentials, spaces)
 * is refused rather than guessed at.
 */
export function normalizePasteDomain(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_PASTE_DOMAIN;
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
