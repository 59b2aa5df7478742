import type { OrganizationScope } from "../auth/guard";
import { ApiError } from "../errors";
import { logoPng } from "./branding";

/**
 * GET /api/account/branding/logo: the stored PNG as it is (we made it, re-encoded, so it is only pixels),
 * never sniffed as anything else. A new logo replaces it at the same URL, so a browser asks again each
 * time (no-cache); the settings page adds the logo's size to the URL to show a new one at once.
 */
export async function logoResponse(ctx: OrganizationScope): Promise<Response> {
  const png = await logoPng(ctx);
  if (!png) {
    throw new ApiError("NOT_FOUND", "Your organization has no logo.", {
      hint: "Upload one with PUT /api/account/branding/logo (a PNG or JPEG); GET /api/account/branding says logo: null until then.",
    });
  }
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.byteLength),
      "Content-Disposition": 'inline; filename="logo.png"',
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    },
  });
}
