import { accountRoute, parseBody, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { createGroup, listGroups } from "@/lib/account/domain-groups";
import { createGroupSchema, GROUP_BODY_MAX_BYTES } from "@/lib/schemas/domain-groups";

// GET /api/account/domain-groups — the organization's domain groups, oldest first (viewer+).
// POST /api/account/domain-groups — a new group {name, domains} (member+); 409 for a taken name or site.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listGroups(ctx, parseListQuery(request))),
  },
  POST: {
    permission: { audit: ["create"] },
    handler: async (ctx, request) => {
      const input = await parseBody(request, createGroupSchema, GROUP_BODY_MAX_BYTES);
      return jsonResponse(await createGroup(ctx, input), { status: 201 });
    },
  },
});
