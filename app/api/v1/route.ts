import { buildApiIndex } from "@/lib/api/discovery";
import { jsonResponse, readOnlyRoute } from "@/lib/http/response";
import { siteOrigin } from "@/lib/http/origin";

// GET /api/v1 — the operation catalog; the first call when only the origin is known.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  (request) => jsonResponse(buildApiIndex(siteOrigin(request))),
  { cors: true },
);
