import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { assertGroupExists, deleteGroup, getGroup, updateGroup } from "@/lib/account/domain-groups";
import { GROUP_BODY_MAX_BYTES, updateGroupSchema } from "@/lib/schemas/domain-groups";

// GET /api/account/domain-groups/{id} — one group (viewer+).
// PATCH /api/account/domain-groups/{id} — rename it or replace its domains (member+).
// DELETE /api/account/domain-groups/{id} — remove it (member+); audits already saved keep their group names.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => jsonResponse(await getGroup(ctx, String(params.id))),
  },
  PATCH: {
    permission: { audit: ["update"] },
    resource: (ctx, params) => assertGroupExists(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(
        await updateGroup(ctx, String(params.id), await parseBody(request, updateGroupSchema, GROUP_BODY_MAX_BYTES)),
      ),
  },
  DELETE: {
    permission: { audit: ["delete"] },
    handler: async (ctx, _request, params) => {
      await deleteGroup(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
