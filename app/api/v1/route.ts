import { buildApiIndex } from "@/lib/api/discovery";
import { jsonResponse, readOnlyRoute, siteOrigin } from "@/lib/api/http";

// GET /api/v1 — the operation catalog; the first call when only the origin is known.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  (request) => jsonResponse(buildApiIndex(siteOrigin(request))),
  { cors: true },
);
