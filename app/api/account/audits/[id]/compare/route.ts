import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { compareAudits } from "@/lib/account/audit-compare";
import { findAudit } from "@/lib/account/audits";

// GET /api/account/audits/{id}/compare?with={otherId} — links added, removed and changed since the other audit.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.compareAudits,
    resource: (ctx, { id }) => findAudit(ctx, id),
    handler: (ctx, { params, query }) => compareAudits(ctx, params.id, query.with),
  },
});
