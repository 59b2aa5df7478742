import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { activeOrganizationSchema } from "@/lib/schemas/team";
import { switchOrganization } from "@/lib/account/team";

// PUT /api/account/active-organization — switch the session to another of the user's organizations.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PUT: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => {
      const { organizationId } = await parseBody(request, activeOrganizationSchema);
      return jsonResponse(await switchOrganization(ctx, organizationId));
    },
  },
});
