import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { exportAudit } from "@/lib/account/audit-export";
import { findAudit } from "@/lib/account/audits";

// GET /api/account/audits/{id}/export?format=csv|json — the audit's links as a streamed download.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.exportAudit,
    resource: (ctx, { id }) => findAudit(ctx, id),
    handler: async (ctx, { params, query }) => {
      const download = await exportAudit(ctx, params.id, query.format);
      return new Response(download.body, {
        status: 200,
        headers: {
          "Content-Type": download.contentType,
          "Content-Disposition": `attachment; filename="${download.filename}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  },
});
