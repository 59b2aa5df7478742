import { normalizePasteHostname } from "../analyzer";
import { DEFAULT_PASTE_DOMAIN } from "./schemas";

/**
 * The `domain` of a paste request: DEFAULT_PASTE_DOMAIN when it is left out, else a bare hostname,
 * lowercased, IDN to punycode (the analyzer's `normalizePasteHostname`, lib/analyzer/worker/paste-hostname.ts,
 * below the API because the worker thread reads paste bodies itself).
 * @throws ApiError INVALID_REQUEST
 */
export function normalizePasteDomain(raw: string | undefined): string {
  return raw === undefined ? DEFAULT_PASTE_DOMAIN : normalizePasteHostname(raw);
}
