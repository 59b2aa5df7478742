import { accountRoute } from "@/lib/auth/account-route";
import { pageHtmlResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/page.html — the page's HTML as the server sent it, as a text/plain attachment (never rendered here; viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => pageHtmlResponse(ctx, String(params.id)),
  },
});
