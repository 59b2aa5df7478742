import { z } from "zod";
import { PasteModeRequestSchema, UrlModeRequestSchema } from "../api/schemas";
import { MAX_URL_LENGTH } from "../limits";

/**
 * Input schemas of the MCP tools. The url/html/domain fields are the analyzer's own (lib/api/schemas.ts),
 * so a tool accepts exactly what POST /api/demo/analyze accepts; the SDK turns these into the JSON
 * Schema that tools/list shows. Strict: an unknown argument is refused, as an unknown body field is.
 */

const includeSnapshot = z
  .boolean()
  .optional()
  .describe(
    "true to also return sanitizedHtml, the defanged page snapshot (often 100 KB or more). Leave it out unless you need the markup around a link.",
  );

const url = UrlModeRequestSchema.shape.url.meta({
  description:
    "Public http(s) URL of the page, e.g. https://example.com/blog/post (port 80/443, no credentials, at most 2,048 characters).",
  format: "uri",
});
const html = PasteModeRequestSchema.shape.html.describe(
  "The page's raw HTML. Nothing is fetched: links are classified as they appear in this markup.",
);
const domain = PasteModeRequestSchema.shape.domain.describe(
  "Hostname the HTML was served from, e.g. example.com: links resolve against https://{domain}/ and are internal when on the same site. Default example.com.",
);

export const MATCH_MODES = ["exact", "prefix", "domain"] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export const AnalyzePageInput = z.strictObject({ url, includeSnapshot });
export const AnalyzeHtmlInput = z.strictObject({ html, domain, includeSnapshot });
export const FindLinkInput = z.strictObject({
  url: url
    .optional()
    .describe("The page to look on, rendered like analyze_page (spends render budget). Give url or html, not both."),
  html: html
    .optional()
    .describe("The page's HTML, if you already have it (free, nothing fetched). Give url or html, not both."),
  domain: domain.describe("Only with html: the hostname the HTML was served from. Default example.com."),
  target: z
    .string()
    .min(1)
    .max(MAX_URL_LENGTH)
    .describe("The link you are looking for: a URL (https://mysite.com/page) or a bare domain (mysite.com)."),
  match: z
    .enum(MATCH_MODES)
    .optional()
    .describe(
      "exact: same URL (ignoring http/https, a leading www., the #fragment and a trailing slash); prefix: the link's URL starts with target; domain: the link's host is target's host or a subdomain. Default: exact when target has a path or query, else domain.",
    ),
});

export type AnalyzePageArgs = z.infer<typeof AnalyzePageInput>;
export type AnalyzeHtmlArgs = z.infer<typeof AnalyzeHtmlInput>;
export type FindLinkArgs = z.infer<typeof FindLinkInput>;
