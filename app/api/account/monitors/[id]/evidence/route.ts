import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { captureEvidence } from "@/lib/monitor/evidence-now";

// POST /api/account/monitors/{id}/evidence — render the page now and keep a manual evidence record per tracked link (member+; 201).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["run"] },
    handler: async (ctx, request, params) => jsonResponse(await captureEvidence(ctx, String(params.id), request.signal), { status: 201 }),
  },
});
