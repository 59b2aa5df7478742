import { describeZodError } from "@/lib/http/error-body";
import { MAX_URL_LENGTH } from "@/lib/limits";
import {
  PasteModeRequestSchema,
  UrlModeRequestSchema,
  type PasteModeRequest,
  type UrlModeRequest,
} from "@/lib/api/schemas";

/**
 * Browser-side checks before spending a request: the shared zod schemas for the shape, plus the
 * URL rules people trip over most (scheme, length). The server stays the authority (DNS, ports,
 * private hosts); these only catch typos early and say how to fix them.
 */
export type Validation<T> = { ok: true; request: T } | { ok: false; field: "url" | "html" | "domain"; message: string };

export function validateUrlInput(input: string): Validation<UrlModeRequest> {
  const raw = input.trim();
  if (!raw) return { ok: false, field: "url", message: "Enter the address of the page to analyze." };
  // People paste "example.com/page"; the API needs an absolute URL, so assume https.
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^:/]+:\d+(\/|$)/.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, field: "url", message: "That is not a valid URL. Example: https://example.com/blog/post" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, field: "url", message: "Only http:// and https:// pages can be analyzed." };
  }
  if (candidate.length > MAX_URL_LENGTH) {
    return {
      ok: false,
      field: "url",
      message: `The URL is longer than ${MAX_URL_LENGTH.toLocaleString("en-US")} characters.`,
    };
  }
  const parsed = UrlModeRequestSchema.safeParse({ url: candidate });
  return parsed.success
    ? { ok: true, request: parsed.data }
    : { ok: false, field: "url", message: describeZodError(parsed.error) };
}

export function validatePasteInput(html: string, domain: string): Validation<PasteModeRequest> {
  if (!html.trim()) return { ok: false, field: "html", message: "Paste the page's HTML (view-source, copy, paste)." };
  let host = domain.trim();
  if (host) {
    // Accept "https://example.com/page" and keep only the hostname the API expects.
    try {
      host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`).hostname;
    } catch {
      return { ok: false, field: "domain", message: "Enter a hostname such as example.com." };
    }
    if (!host) return { ok: false, field: "domain", message: "Enter a hostname such as example.com." };
  }
  const parsed = PasteModeRequestSchema.safeParse(host ? { html, domain: host } : { html });
  return parsed.success
    ? { ok: true, request: parsed.data }
    : { ok: false, field: "html", message: describeZodError(parsed.error) };
}
