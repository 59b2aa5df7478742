import { jsonResponse, readOnlyRoute } from "@/lib/http/response";
import { siteOrigin } from "@/lib/http/origin";
import { buildOpenApiDocument } from "@/lib/api/openapi";

// GET /openapi.json — the OpenAPI 3.1 document generated from the zod schemas.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  (request) => jsonResponse(buildOpenApiDocument(siteOrigin(request))),
  { cors: true },
);
