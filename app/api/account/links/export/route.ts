import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { exportLinks } from "@/lib/monitor/export";
import { exportQuerySchema } from "@/lib/schemas/monitors";

// GET /api/account/links/export?format=csv|json — every tracked link as a download (member+; audit-logged).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { audit: ["export"] },
    handler: async (ctx, request) => {
      const { format, ...filters } = parseQuery(
        request,
        exportQuerySchema,
        "format=csv or format=json; the list's filters state, tag, monitorId, q apply.",
      );
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
