import { accountRoute } from "@/lib/auth/account-route";
import { siteOrigin } from "@/lib/http/origin";
import { jsonResponse } from "@/lib/http/response";
import { buildAccountOpenApiDocument } from "@/lib/schemas/openapi";

// GET /api/account/openapi.json — the account API in OpenAPI 3.1, for signed-in users only (not linked from the public description).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (_ctx, request) =>
      jsonResponse(buildAccountOpenApiDocument(siteOrigin(request)), {
        headers: { "Cache-Control": "private, no-store" },
      }),
  },
});
