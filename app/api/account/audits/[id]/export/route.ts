import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { exportAudit } from "@/lib/account/audit-export";
import { auditExportQuerySchema } from "@/lib/schemas/audits";
import { findAudit } from "@/lib/account/audits";

// GET /api/account/audits/{id}/export?format=csv|json — the audit's links as a streamed download (member+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { audit: ["export"] },
    handler: async (ctx, request, params) => {
      await findAudit(ctx, String(params.id));
      const { format } = parseQuery(request, auditExportQuerySchema);
      const download = await exportAudit(ctx, String(params.id), format);
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
