import type { AccountContext } from "../auth/guard";
import { ApiError } from "../errors";
import { evidenceReport } from "./pdf";
import { evidenceGoogleScreenshot, evidenceHtml, evidenceScreenshot } from "./read";

/**
 * The downloads of an evidence record as HTTP answers. The kept HTML is hostile until proven otherwise:
 * it is served as text/plain, as an attachment, with nosniff and a sandbox policy, so no browser ever
 * renders it on our origin.
 */

type Scope = Pick<AccountContext, "db" | "organization" | "settings" | "now">;

/** A record never changes, so a browser may keep its files a while (private: they are the organization's). */
const FILE_CACHE = "private, max-age=3600";

function fileName(id: string, suffix: string): string {
  // Ids are ours (UUIDs); anything else is dropped rather than quoted into a header.
  return `evidence-${id.replace(/[^A-Za-z0-9-]/g, "")}${suffix}`;
}

function missing(
  what: string,
  hint = "The page could not be read or photographed when it was captured; its other files are there.",
): ApiError {
  return new ApiError("NOT_FOUND", `This evidence has no ${what}.`, { hint });
}

/** A file as an answer: its bytes, type and disposition, never sniffed. */
function fileResponse(
  bytes: Buffer,
  headers: { type: string; disposition: string; cache: string; extra?: Record<string, string> },
): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": headers.type,
      "Content-Length": String(bytes.length),
      "Content-Disposition": headers.disposition,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": headers.cache,
      ...headers.extra,
    },
  });
}

export async function screenshotResponse(ctx: Scope, id: string): Promise<Response> {
  const png = await evidenceScreenshot(ctx, id);
  if (!png) throw missing("screenshot");
  return fileResponse(png, {
    type: "image/png",
    disposition: `inline; filename="${fileName(id, ".png")}"`,
    cache: FILE_CACHE,
  });
}

/** Googlebot's render: kept only when the record's verdict says the two views differ (google-view.md §2). */
export async function googleScreenshotResponse(ctx: Scope, id: string): Promise<Response> {
  const png = await evidenceGoogleScreenshot(ctx, id);
  if (!png)
    throw missing(
      "screenshot of Googlebot's view",
      "Googlebot's render is kept only when the verdict says a link is not in Google's view or shown only to Googlebot.",
    );
  return fileResponse(png, {
    type: "image/png",
    disposition: `inline; filename="${fileName(id, "-google.png")}"`,
    cache: FILE_CACHE,
  });
}

export async function pageHtmlResponse(ctx: Scope, id: string): Promise<Response> {
  const html = await evidenceHtml(ctx, id);
  if (!html) throw missing("page HTML");
  return fileResponse(html, {
    type: "text/plain; charset=utf-8",
    disposition: `attachment; filename="${fileName(id, "-page.html")}"`,
    cache: FILE_CACHE,
    extra: { "Content-Security-Policy": "sandbox; default-src 'none'" },
  });
}

export async function reportPdfResponse(ctx: Scope, id: string): Promise<Response> {
  const pdf = await evidenceReport(ctx, id);
  return fileResponse(pdf, {
    type: "application/pdf",
    disposition: `attachment; filename="${fileName(id, ".pdf")}"`,
    cache: "private, no-store",
  });
}
