import { accountRoute, skipSmallBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { captureEvidence } from "@/lib/monitor/evidence-now";
import { findMonitor } from "@/lib/monitor/monitors";

// POST /api/account/monitors/{id}/evidence — render the page now and keep a manual evidence record per tracked link (member+; 201; one unit of the daily audit quota).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["run"] },
    resource: (ctx, params) => findMonitor(ctx, String(params.id)),
    handler: async (ctx, request, params) => {
      await skipSmallBody(request);
      const { capture, headers } = await captureEvidence(ctx, String(params.id), request.signal);
      return jsonResponse(capture, { status: 201, headers });
    },
  },
});
