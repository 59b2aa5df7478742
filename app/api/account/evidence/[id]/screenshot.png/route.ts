import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { screenshotResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/screenshot.png — the record's screenshot, 1280 px wide (image/png).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.getEvidenceScreenshot,
    handler: (ctx, { params }) => screenshotResponse(ctx, params.id),
  },
});
