import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listLinkEvidence } from "@/lib/evidence/read";
import { findLink } from "@/lib/monitor/links";

// GET /api/account/links/{id}/evidence — the tracked link's evidence records, newest first.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.listLinkEvidence,
    resource: (ctx, { id }) => findLink(ctx, id),
    handler: (ctx, { params, query }) => listLinkEvidence(ctx, params.id, query),
  },
});
