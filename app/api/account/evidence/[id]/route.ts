import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { getEvidence } from "@/lib/evidence/read";

// GET /api/account/evidence/{id} — one evidence record.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.getEvidence,
    handler: async (ctx, { params }) =>
      withHeaders(await getEvidence(ctx, params.id), { "Cache-Control": "private, no-store" }),
  },
});
