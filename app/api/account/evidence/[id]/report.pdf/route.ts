import { accountRoute } from "@/lib/auth/account-route";
import { reportPdfResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/report.pdf — the record on one printed page, for a vendor (application/pdf attachment; viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => reportPdfResponse(ctx, String(params.id)),
  },
});
