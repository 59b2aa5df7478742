import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { describeMe } from "@/lib/account/me";

// GET /api/account/me — the signed-in user, the active organization and the role there.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getMe, handler: (ctx) => describeMe(ctx) },
});
