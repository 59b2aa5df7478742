import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { findAudit } from "@/lib/account/audits";
import { trackFromAudit } from "@/lib/monitor/links";

// POST /api/account/audits/{id}/track — track the link at {position} of a saved audit on the audit's page.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.trackFromAudit,
    resource: (ctx, { id }) => findAudit(ctx, id),
    handler: (ctx, { params, body }) => trackFromAudit(ctx, params.id, body.position),
  },
});
