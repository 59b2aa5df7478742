import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { exportLinks } from "@/lib/monitor/export";

// GET /api/account/links/export?format=csv|json — every tracked link as a download (in the activity log).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.exportLinks,
    handler: async (ctx, { query: { format, ...filters } }) => {
      const file = await exportLinks(ctx, filters, format);
      return new Response(file.body, {
        status: 200,
        headers: {
          "Content-Type": file.contentType,
          "Content-Disposition": `attachment; filename="${file.filename}"`,
          "Cache-Control": "no-store",
        },
      });
    },
  },
});
