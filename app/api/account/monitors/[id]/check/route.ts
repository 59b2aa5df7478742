import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { checkNow } from "@/lib/monitor/check-now";

// POST /api/account/monitors/{id}/check — check the page now and answer the updated monitor (409 while a check runs).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.checkNow,
    handler: (ctx, { request, params }) => checkNow(ctx, params.id, request.signal),
  },
});
