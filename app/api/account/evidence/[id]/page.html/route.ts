import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { pageHtmlResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/page.html — the page's HTML as the server sent it, as a text/plain attachment (never rendered here).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getEvidencePageHtml, handler: (ctx, { params }) => pageHtmlResponse(ctx, params.id) },
});
