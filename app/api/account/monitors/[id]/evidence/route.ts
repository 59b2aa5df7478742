import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { captureEvidence } from "@/lib/monitor/evidence-now";
import { findMonitor } from "@/lib/monitor/monitors";

// POST /api/account/monitors/{id}/evidence — render the page now and keep a manual evidence record per tracked link (201; one unit of the daily audit quota).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.captureEvidence,
    resource: (ctx, { id }) => findMonitor(ctx, id),
    handler: async (ctx, { request, params }) => {
      const { capture, headers } = await captureEvidence(ctx, params.id, request.signal);
      return withHeaders(capture, headers);
    },
  },
});
