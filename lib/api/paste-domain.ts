import { normalizePasteHostname } from "../analyzer";
import { DEFAULT_PASTE_DOMAIN } from "./schemas";

/**
 * Normalizes the paste-mode `domain`: DEFAULT_PASTE_DOMAIN when it is left out, else a bare hostname,
 * lowercased, IDN to punycode (lib/analyzer/worker/paste-hostname.ts, where the worker thread reads it too).
 * @throws ApiError INVALID_REQUEST
 */
export function normalizePasteDomain(raw: string | undefined): string {
  return raw === undefined ? DEFAULT_PASTE_DOMAIN : normalizePasteHostname(raw);
}
