import { accountRoute } from "@/lib/auth/account-route";
import { removeLogo, setLogo } from "@/lib/branding/branding";
import { logoResponse } from "@/lib/branding/logo-file";
import { OPERATIONS } from "@/lib/schemas/operations";

// GET /api/account/branding/logo — the stored logo, a PNG (viewer+; 404 when there is none).
// PUT /api/account/branding/logo — a PNG or JPEG body, kept re-encoded as a PNG within 512 × 512 (admin+).
// DELETE /api/account/branding/logo — remove the logo (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getBrandingLogo, handler: (ctx) => logoResponse(ctx) },
  PUT: { operation: OPERATIONS.putBrandingLogo, handler: (ctx, { body }) => setLogo(ctx, body) },
  DELETE: { operation: OPERATIONS.deleteBrandingLogo, handler: (ctx) => removeLogo(ctx) },
});
