import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { googleScreenshotResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/google.png — Googlebot's render of the page (image/png), when the record kept one.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.getEvidenceGoogleScreenshot,
    handler: (ctx, { params }) => googleScreenshotResponse(ctx, params.id),
  },
});
