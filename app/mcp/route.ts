import { handleMcpPost, mcpMethodNotAllowed } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

// POST /mcp — Model Context Protocol over Streamable HTTP, stateless; tools in lib/mcp/tools.ts.
export async function POST(request: Request): Promise<Response> {
  return handleMcpPost(request);
}

// Any other method — 405 with Allow: POST (no event stream, no session to end: see lib/mcp/http.ts).
export {
  mcpMethodNotAllowed as GET,
  mcpMethodNotAllowed as HEAD,
  mcpMethodNotAllowed as PUT,
  mcpMethodNotAllowed as PATCH,
  mcpMethodNotAllowed as DELETE,
  mcpMethodNotAllowed as OPTIONS,
};
