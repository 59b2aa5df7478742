import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { reportPdfResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/report.pdf — the record on one printed page, for a vendor (application/pdf attachment).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getEvidenceReport, handler: (ctx, { params }) => reportPdfResponse(ctx, params.id) },
});
