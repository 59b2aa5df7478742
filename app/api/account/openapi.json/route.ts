import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { siteOrigin } from "@/lib/http/origin";
import { buildAccountOpenApiDocument } from "@/lib/schemas/openapi";

// GET /api/account/openapi.json — the account API in OpenAPI 3.1, for signed-in users only (not linked from the public description).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.getAccountOpenApi,
    handler: async (_ctx, { request }) =>
      withHeaders({ ...buildAccountOpenApiDocument(siteOrigin(request)) }, { "Cache-Control": "private, no-store" }),
  },
});
