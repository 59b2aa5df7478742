import { accentStylesheet } from "@/lib/branding/stylesheet";

// GET /brand/accent-{rrggbb}.css — a client report's accent colour and the text colour on it, as CSS custom
// properties (the report's policy loads styles from our origin only); the same for every report of that colour.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const css = accentStylesheet((await params).file);
  if (css === null)
    return new Response("No such stylesheet.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    });
  return new Response(css, {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
