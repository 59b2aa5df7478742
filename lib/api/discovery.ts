import { MCP_PATH, MCP_TOOLS } from "./mcp-catalog";
import {
  API_VERSION,
  CONTACT,
  OPERATIONS,
  SERVICE_DESCRIPTION,
  SERVICE_NAME,
  SERVICE_SLUG,
  WHEN_NOT_TO_USE,
  WHEN_TO_USE,
} from "./catalog";
import type { ApiIndex, Health, Product } from "./schemas";

/** The bodies of the discovery routes, built from the catalog for a given public origin. */

export function buildApiIndex(origin: string): ApiIndex {
  return {
    name: SERVICE_NAME,
    version: API_VERSION,
    description: SERVICE_DESCRIPTION,
    docs: `${origin}/docs`,
    openapi: `${origin}/openapi.json`,
    llmsTxt: `${origin}/llms.txt`,
    operations: OPERATIONS.map(({ method, path, operationId, description }) => ({
      method,
      path,
      operationId,
      description,
    })),
  };
}

export function buildHealth(): Health {
  return { status: "ok", service: SERVICE_SLUG };
}

export function buildProduct(origin: string): Product {
  return {
    name: SERVICE_NAME,
    url: `${origin}/`,
    description: `${SERVICE_DESCRIPTION} Paste mode classifies HTML you supply without fetching anything. Anonymous results are never saved.`,
    whenToUse: WHEN_TO_USE,
    whenNotToUse: WHEN_NOT_TO_USE,
    howToCall: {
      product: `GET ${origin}/api/v1/product`,
      health: `GET ${origin}/api/v1/health`,
      demoAnalyze: `POST ${origin}/api/demo/analyze with Content-Type: application/json and {"url":"https://…"} or {"html":"<…>","domain":"example.com"}`,
      openapi: `${origin}/openapi.json`,
      llmsText: `${origin}/llms.txt`,
      apiIndex: `GET ${origin}/api/v1`,
      docs: `${origin}/docs`,
      mcp: `${origin}${MCP_PATH}: Model Context Protocol server (Streamable HTTP, stateless, POST) with the tools ${MCP_TOOLS.map((tool) => tool.name).join(", ")}`,
    },
    contact: CONTACT,
  };
}
