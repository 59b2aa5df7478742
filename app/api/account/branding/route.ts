import { accountRoute } from "@/lib/auth/account-route";
import { getBranding, updateBranding } from "@/lib/branding/branding";
import { OPERATIONS } from "@/lib/schemas/operations";

// GET /api/account/branding — how the organization's reports and PDFs look (viewer+; never 404).
// PATCH /api/account/branding — change the display name, accent colour or footer (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getBranding, handler: (ctx) => getBranding(ctx) },
  PATCH: { operation: OPERATIONS.updateBranding, handler: (ctx, { body }) => updateBranding(ctx, body) },
});
