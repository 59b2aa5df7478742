import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { removeSchedule, setSchedule } from "@/lib/reports/schedules";
import { findShare } from "@/lib/shares/shares";

// PUT /api/account/shares/{id}/schedule — set the share's scheduled report (new recipients are asked to confirm).
// DELETE /api/account/shares/{id}/schedule — remove it and its recipients.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PUT: {
    operation: OPERATIONS.setShareSchedule,
    resource: (ctx, { id }) => findShare(ctx, id),
    handler: (ctx, { params, body }) => setSchedule(ctx, params.id, body),
  },
  DELETE: { operation: OPERATIONS.removeShareSchedule, handler: (ctx, { params }) => removeSchedule(ctx, params.id) },
});
