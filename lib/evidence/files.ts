import type { AccountContext } from "../auth/guard";
import { ApiError } from "../errors";
import { evidenceReport } from "./pdf";
import { evidenceHtml, evidenceScreenshot } from "./read";

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

function missing(what: string): ApiError {
  return new ApiError("NOT_FOUND", `This evidence has no ${what}.`, { hint: "The page could not be read or photographed when it was captured; its other files are there." });
}

export async function screenshotResponse(ctx: Scope, id: string): Promise<Response> {
  const png = await evidenceScreenshot(ctx, id);
  if (!png) throw missing("screenshot");
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Content-Disposition": `inline; filename="${fileName(id, ".png")}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": FILE_CACHE,
    },
  });
}

export async function pageHtmlResponse(ctx: Scope, id: string): Promise<Response> {
  const html = await evidenceHtml(ctx, id);
  if (!html) throw missing("page HTML");
  return new Response(new Uint8Array(html), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(html.length),
      "Content-Disposition": `attachment; filename="${fileName(id, "-page.html")}"`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'",
      "Cache-Control": FILE_CACHE,
    },
  });
}

export async function reportPdfResponse(ctx: Scope, id: string): Promise<Response> {
  const pdf = await evidenceReport(ctx, id);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.length),
      "Content-Disposition": `attachment; filename="${fileName(id, ".pdf")}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
