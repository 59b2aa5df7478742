import { exceedsJsonDepth } from "../../json-depth";
import { MAX_JSON_DEPTH } from "../../limits";
import { normalizePasteHostname } from "./paste-hostname";

/**
 * A paste-mode request body read in the worker thread, straight from its raw bytes, so the server's
 * main thread never decodes or parses megabytes of JSON (docs/performance.md "Issue 28"). The worker
 * analyses the body only when it is plainly a valid paste request: an object with a string `html` no
 * larger than the cap, an optional string `domain` that is a hostname, nothing else. Anything else is
 * handed back for the API's own validation, which then answers the exact error it always did:
 *  - as a SKELETON (the body with `html` emptied, and html's byte count) when html is a string: every
 *    refusal here (extra or missing fields, a bad domain, html over the cap) is one the API's
 *    validation also finds on the skeleton, so megabytes of html never cross back;
 *  - whole otherwise (not an object, html not a string: small or invalid anyway).
 * A body nested deeper than MAX_JSON_DEPTH is neither parsed nor handed back ("too-deep"): a value
 * thousands of levels deep overflows the structured clone that carries it to the main thread.
 * The API also validates the skeleton of a body the worker analysed (lib/api/analyze-body.ts), so the
 * worker's shortcut can never accept what the API refuses.
 */

export interface PasteBodyRules {
  /** MAX_HTML_BYTES: html over it is refused (413 at the API). */
  maxHtmlBytes: number;
  /** The domain of a body without one (DEFAULT_PASTE_DOMAIN). */
  defaultDomain: string;
}

export type PasteBodyRead =
  | { kind: "paste"; html: string; domain: string; htmlBytes: number; skeleton: Record<string, unknown> }
  | { kind: "refused"; body: unknown; htmlBytes: number | null }
  | { kind: "invalid-json" }
  | { kind: "too-deep" };

const PASTE_KEYS = new Set(["html", "domain"]);

export function readPasteBody(bytes: Uint8Array, rules: PasteBodyRules): PasteBodyRead {
  const text = new TextDecoder("utf-8").decode(bytes);
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) return { kind: "too-deep" };
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return { kind: "invalid-json" };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { kind: "refused", body, htmlBytes: null };
  const fields = body as Record<string, unknown>;
  const html = fields.html;
  if (typeof html !== "string") return { kind: "refused", body, htmlBytes: null };
  // Same keys in the same order, so the API's first complaint is the one it would have made.
  const skeleton = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, key === "html" ? "" : value]));
  const htmlBytes = Buffer.byteLength(html, "utf8");
  const refused: PasteBodyRead = { kind: "refused", body: skeleton, htmlBytes };
  const domain = fields.domain;
  if (
    !Object.keys(fields).every((key) => PASTE_KEYS.has(key)) ||
    (domain !== undefined && typeof domain !== "string") ||
    htmlBytes > rules.maxHtmlBytes
  )
    return refused;
  try {
    return {
      kind: "paste",
      html,
      domain: domain === undefined ? rules.defaultDomain : normalizePasteHostname(domain),
      htmlBytes,
      skeleton,
    };
  } catch {
    return refused;
  }
}
