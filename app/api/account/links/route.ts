import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listLinks } from "@/lib/monitor/links";
import { linkListSchema } from "@/lib/schemas/monitors";

// GET /api/account/links — every tracked link of the organization, newest first; filters state, tag, monitorId, q.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => {
      const { limit, cursor, ...filters } = parseQuery(
        request,
        linkListSchema,
        "Filters: state, tag, monitorId, q; pages: limit (1–100), cursor.",
      );
      return jsonResponse(await listLinks(ctx, filters, { limit, cursor }));
    },
  },
});
