import { readOnlyRoute } from "@/lib/http/response";
import { siteOrigin } from "@/lib/http/origin";
import { buildLlmsTxt } from "@/lib/api/llms";

// GET /llms.txt — the plain-text agent guide, generated from the operation catalog.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  (request) =>
    new Response(buildLlmsTxt(siteOrigin(request)), {
      // readOnlyRoute adds the CORS headers to every answer.
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    }),
  { cors: true },
);
