import type { Metadata } from "next";
import { headers } from "next/headers";
import { CodeBlock } from "@/components/docs/CodeBlock";
import { FieldTable } from "@/components/docs/FieldTable";
import { SITE_ICON, SiteFooter, SiteHeader } from "@/components/site/SiteChrome";
import { API_VERSION, OPERATIONS, SERVICE_DESCRIPTION, limitFacts } from "@/lib/api/catalog";
import { ERRORS, errorAnchor, type ErrorCode } from "@/lib/errors";
import { publicOrigin } from "@/lib/http/origin";
import { describeFields } from "@/lib/api/schema-fields";
import {
  ApiIndexSchema,
  DemoAnalyzeSuccessSchema,
  ErrorSchema,
  HealthSchema,
  LinkSchema,
  OperationSchema,
  PUBLIC_ERROR_CODES,
  PasteModeRequestSchema,
  ProductSchema,
  StatsSchema,
  UrlModeRequestSchema,
} from "@/lib/api/schemas";
import { getConfig, listenOrigin } from "@/lib/config";
import { MCP_TOOLS, mcpClientConfig, mcpFacts } from "@/lib/api/mcp-catalog";

export const metadata: Metadata = { title: "LinkLens API docs", icons: { icon: SITE_ICON } };

async function origin(): Promise<string> {
  const config = getConfig();
  return publicOrigin(await headers(), config, listenOrigin(config));
}

const SCHEMAS = [
  { title: "Error (every error body)", schema: ErrorSchema },
  { title: "Health", schema: HealthSchema },
  { title: "ApiIndex", schema: ApiIndexSchema },
  { title: "Operation entry", schema: OperationSchema },
  { title: "Product", schema: ProductSchema },
  { title: "DemoAnalyzeRequest, URL mode", schema: UrlModeRequestSchema },
  { title: "DemoAnalyzeRequest, paste mode", schema: PasteModeRequestSchema },
  { title: "DemoAnalyzeSuccess", schema: DemoAnalyzeSuccessSchema },
  { title: "Link", schema: LinkSchema },
  { title: "Stats", schema: StatsSchema },
];

/** One row of the error table; its id is the anchor an Error body's `docs` points at. */
function ErrorRowView({ code }: { code: ErrorCode }) {
  const row = ERRORS[code];
  return (
    <tr
      id={errorAnchor(code)}
      className="scroll-mt-4 border-b border-slate-200 align-top target:bg-yellow-50 dark:border-slate-800 dark:target:bg-yellow-950"
    >
      <td className="py-1 pr-4">{row.status}</td>
      <td className="py-1 pr-4 font-mono">{code}</td>
      <td className="py-1 pr-4">{row.when}</td>
      <td className="py-1">{row.hint}</td>
    </tr>
  );
}

// /docs — human API docs, rendered from the operation catalog and the zod schemas.
export default async function DocsPage() {
  const base = await origin();
  const config = getConfig();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader current="/docs" />
      <main className="mx-auto w-full max-w-4xl flex-1 px-6 py-12 leading-relaxed">
        <h1 className="text-3xl font-bold">LinkLens API docs</h1>
        <p className="mt-2 text-sm text-slate-500">Version {API_VERSION}</p>
        <p className="mt-4">{SERVICE_DESCRIPTION}</p>
        <p className="mt-2">
          No account or key is needed. All bodies are JSON. Machine-readable:{" "}
          <a className="text-blue-700 underline dark:text-blue-300" href="/openapi.json">
            OpenAPI 3.1
          </a>
          ; for agents:{" "}
          <a className="text-blue-700 underline dark:text-blue-300" href="/llms.txt">
            llms.txt
          </a>
          .
        </p>

        <section id="operations" className="mt-10">
          <h2 className="text-2xl font-semibold">Operations</h2>
          {OPERATIONS.map((op) => (
            <article key={op.operationId} id={op.operationId} className="mt-6">
              <h3 className="font-mono text-lg font-semibold">
                {op.method} {op.path}
              </h3>
              <p className="text-sm text-slate-500">
                operationId: {op.operationId}
                {op.cors ? " · CORS enabled" : ""}
              </p>
              <p className="mt-1">{op.description}</p>
              <CodeBlock>{op.curl.replaceAll("{base}", base)}</CodeBlock>
            </article>
          ))}
          <p className="mt-6">
            URL mode: <code>{`{"url": "https://example.com/"}`}</code>. The page is rendered in headless Chromium after
            its JavaScript runs; every internal and external link is checked (HEAD, then GET) and gets its{" "}
            <code>httpStatus</code>. Send a browser User-Agent: missing or bot User-Agents get 403 BOT_DETECTED. Paste
            mode: <code>{`{"html": "…", "domain": "example.com"}`}</code>. Nothing is fetched, links resolve against{" "}
            <code>https://&#123;domain&#125;/</code>, and <code>httpStatus</code> is null. Any unknown path under{" "}
            <code>/api/</code> answers 404 NOT_FOUND.
          </p>
        </section>

        <section id="mcp" className="mt-10">
          <h2 className="text-2xl font-semibold">MCP server (for agents)</h2>
          <p className="mt-2">
            Agent hosts that speak the Model Context Protocol can add LinkLens as a Streamable HTTP server and call the
            analyzer as tools. It is not one of the operations above: /api/v1 and /openapi.json describe the JSON API
            only.
          </p>
          <ul className="mt-2 list-disc pl-6">
            {mcpFacts(base, config.MCP_URL_MODE).map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
          <h3 className="mt-4 font-semibold">Tools</h3>
          <ul className="mt-2 list-disc pl-6">
            {MCP_TOOLS.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code> <code>{tool.args}</code>: {tool.summary}.
              </li>
            ))}
          </ul>
          <h3 className="mt-4 font-semibold">Client configuration</h3>
          <CodeBlock>{mcpClientConfig(base)}</CodeBlock>
        </section>

        <section id="fields" className="mt-10">
          <h2 className="text-2xl font-semibold">Fields</h2>
          {SCHEMAS.map(({ title, schema }) => (
            <FieldTable key={title} title={title} rows={describeFields(schema)} />
          ))}
          <ul className="mt-4 list-disc pl-6 text-sm">
            <li>
              <b>linkType</b>: ignored for empty hrefs, non-http(s) schemes, same-page #fragment links and unparseable
              hrefs; internal when the host has the page&apos;s registrable domain (public suffix list, so a.github.io
              and b.github.io differ); external otherwise.
            </li>
            <li>
              <b>Rel flags</b>: rel split on spaces and commas, case-insensitive. A page-wide meta robots (or googlebot)
              nofollow/none, or an X-Robots-Tag header in URL mode, makes every link nofollow.
            </li>
            <li>
              <b>anchorText</b>: the link text, whitespace collapsed; else image alt, aria-label, title; else null. At
              most 1,000 characters.
            </li>
            <li>
              <b>httpStatus</b>: final status after up to 5 redirects; 0 when no HTTP response came back; null for
              ignored, unchecked links and in paste mode.
            </li>
            <li>
              <b>broken</b>: httpStatus 0 or 400–599 except 401, 403, 429 (and LinkedIn&apos;s 999): those are access or
              bot walls.
            </li>
          </ul>
        </section>

        <section id="errors" className="mt-10">
          <h2 className="text-2xl font-semibold">Errors</h2>
          <p className="mt-2">
            Every error is <code>{`{"success": false, "error", "errorCode", "hint", "docs"}`}</code> with{" "}
            <code>Content-Type: application/json</code>.
          </p>
          <table className="mt-4 w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th className="py-1 pr-4">Status</th>
                <th className="py-1 pr-4">errorCode</th>
                <th className="py-1 pr-4">When</th>
                <th className="py-1">What to do</th>
              </tr>
            </thead>
            <tbody>
              {PUBLIC_ERROR_CODES.map((code) => (
                <ErrorRowView key={code} code={code} />
              ))}
            </tbody>
          </table>
        </section>

        <section id="limits" className="mt-10">
          <h2 className="text-2xl font-semibold">Limits and headers</h2>
          <ul className="mt-2 list-disc pl-6">
            {limitFacts(config).map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
            <li>
              CORS (Access-Control-Allow-Origin: *) is enabled on the GET routes, /openapi.json and /llms.txt; the
              analyzer is not CORS-enabled.
            </li>
            <li>Every response carries X-Request-Id; quote it when you contact support.</li>
          </ul>
        </section>
      </main>
      <SiteFooter current="/docs" />
    </div>
  );
}
