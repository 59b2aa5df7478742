import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { describeMe } from "@/lib/account/me";

// GET /api/account/me — the signed-in user, the active organization and the role there.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { permission: { account: ["read"] }, handler: async (ctx) => jsonResponse(await describeMe(ctx)) },
});
