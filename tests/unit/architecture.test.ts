import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The layer boundaries of docs/architecture.md are lint rules: each case lints a small in-memory file
 * as if it sat at `file` and expects no-restricted-imports to fire (or not).
 */
const ROOT = path.resolve(__dirname, "..", "..");
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

const wrongArrows: [string, string][] = [
  ["lib/analyzer/links/extract.ts", 'import { errorResponse } from "@/lib/http/response";'],
  ["lib/analyzer/links/extract.ts", 'import { errorResponse } from "../../api/http";'],
  ["lib/analyzer/links/extract.ts", 'import { NextResponse } from "next/server";'],
  ["lib/analyzer/links/extract.ts", 'import { checkRequestLimit } from "@/lib/ratelimit";'],
  ["lib/analyzer/analyze-url.ts", 'import { errorResponse } from "../api/http";'],
  ["lib/analyzer/render/capture.ts", 'import { recordAlertEvents } from "../../alerts/events";'],
  ["lib/analyzer/worker/pool.ts", 'import { useState } from "react";'],
  ["lib/net/resolve.ts", 'import { renderPage } from "@/lib/analyzer/render/renderer";'],
  ["lib/net/resolve.ts", 'import { useState } from "react";'],
  ["lib/net/resolve.ts", 'import { describeZodError } from "../api/errors";'],
  ["lib/api/analyze-service.ts", 'import { renderPage } from "../analyzer/render/renderer";'],
  ["lib/api/analyze-service.ts", 'import { resolveChecked } from "@/lib/net/resolve";'],
  ["lib/account/audits.ts", 'import { checkLinks } from "@/lib/analyzer/links/check-links";'],
  ["lib/monitor/scheduler.ts", 'import { AnalyzerPool } from "../analyzer/worker/pool";'],
  ["lib/evidence/pdf.ts", 'import { printHtml } from "@/lib/analyzer/render/print";'],
  ["server/main.ts", 'import { AnalyzerPool } from "@/lib/analyzer/worker/pool";'],
  ["app/api/demo/analyze/route.ts", 'import { renderPage } from "@/lib/analyzer/render/renderer";'],
  ["components/analyzer/Results.tsx", 'import { analyzeDocument } from "@/lib/analyzer/pipeline";'],
  ["components/analyzer/Results.tsx", 'import "@/server/main";'],
  ["scripts/bench.ts", 'import { startCanary } from "@/tests/helpers/canary";'],
  ["scripts/lib/corpus.ts", 'import { startCanary } from "../../tests/helpers/canary";'],
  ["lib/errors.ts", 'import { z } from "zod";'],
  ["lib/config.ts", 'import { ApiError } from "./errors";'],
  ["lib/ratelimit/limiter.ts", 'import { jsonResponse } from "@/lib/http/response";'],
  // The product's floors: each arrow below points up (or sideways on the account/alerts floor).
  ["lib/http/response.ts", 'import { PUBLIC_ERROR_CODES } from "@/lib/api/schemas";'],
  ["lib/api/discovery.ts", 'import { MCP_TOOLS } from "../mcp/tools";'],
  ["lib/api/schemas.ts", 'import { MonitorSchema } from "@/lib/schemas/monitors";'],
  ["lib/schemas/monitors.ts", 'import { database } from "../db";'],
  ["lib/schemas/monitors.ts", 'import { analyzeUrl } from "@/lib/analyzer";'],
  ["lib/db/keyset.ts", 'import { authorize } from "../auth/guard";'],
  ["lib/db/prepare.ts", 'import { enqueueEmail } from "@/lib/mail/outbox";'],
  ["lib/mail/sender.ts", 'import { membershipOf } from "../auth/auth";'],
  ["lib/auth/guard.ts", 'import { describeMe } from "@/lib/account/me";'],
  ["lib/account/team.ts", 'import { recordAlertEvents } from "../alerts/events";'],
  ["lib/alerts/tasks.ts", 'import type { TickTask } from "../monitor/tick-tasks";'],
  ["lib/alerts/mute.ts", 'import { loadDomainGroups } from "@/lib/account/group-lookup";'],
  ["lib/monitor/run-check.ts", 'import { findLink } from "../mcp/find-link";'],
  ["lib/webhooks/queue.ts", 'import { describeEvent } from "../alerts/describe";'],
  ["lib/webhooks/endpoints.ts", 'import { listMembers } from "@/lib/account/team";'],
  ["lib/auth/guard.ts", 'import { webhookTargets } from "../webhooks/queue";'],
  ["lib/webhooks/attempt.ts", 'import { createGuardedDispatcher } from "../net/guarded-dispatcher";'],
  ["lib/webhooks/attempt.ts", 'import { fetchPublic } from "../analyzer/fetch-public";'],
  ["components/account/webhooks/WebhookCard.tsx", 'import { createWebhook } from "@/lib/webhooks/endpoints";'],
  // An account route takes its schemas, parsing and permission from its catalog entry.
  ["app/api/account/monitors/route.ts", 'import { newMonitorSchema } from "@/lib/schemas/monitors";'],
  ["app/api/account/monitors/route.ts", 'import { parseQuery } from "@/lib/http/query";'],
  ["app/api/account/monitors/route.ts", 'import { readJsonBody } from "../../../../lib/http/read-body";'],
  ["app/api/account/monitors/route.ts", 'import { can } from "@/lib/auth/roles";'],
  ["app/api/account/monitors/route.ts", 'import { z } from "zod";'],
  ["lib/verdict/reasons.ts", 'import { database } from "../db";'],
  ["lib/verdict/reasons.ts", 'import { inspectUrl } from "@/lib/analyzer";'],
  ["lib/schemas/verdict.ts", 'import { verdictOf } from "../verdict";'],
  ["lib/analyzer/pipeline.ts", 'import { verdictOf } from "@/lib/verdict";'],
  ["lib/monitor/run-check.ts", 'import { useState } from "react";'],
  ["lib/monitor/links.ts", 'import { dailyStats } from "../stats/daily-query";'],
  ["lib/evidence/read.ts", 'import { findLink } from "../monitor/links";'],
  ["lib/alerts/events.ts", 'import { insertEvidence } from "../evidence/record";'],
  ["lib/stats/daily-query.ts", 'import { openShare } from "../shares/open";'],
  ["lib/shares/report.ts", 'import { runAnalysis } from "@/lib/mcp/tools";'],
  ["lib/shares/shares.ts", 'import { setSchedule } from "../reports/schedules";'],
  ["lib/monitor/tick-tasks.ts", 'import { scheduledReportsTask } from "../reports/task";'],
  ["lib/charts/portfolio-bars.ts", 'import { database } from "../db";'],
  ["lib/charts/portfolio-bars.ts", 'import { useId } from "react";'],
  ["components/shares/ScheduleEditor.tsx", 'import { setSchedule } from "@/lib/reports/schedules";'],
  ["components/charts/UptimeStrip.tsx", 'import { uptimeOfLinks } from "@/lib/stats/uptime-query";'],
  ["lib/db/client.ts", 'import { headers } from "next/headers";'],
  ["components/account/TeamPanel.tsx", 'import { listMembers } from "@/lib/account/team";'],
  ["components/account/TeamPanel.tsx", 'import { database } from "@/lib/db";'],
  // Branding sits above the activity log (lib/auth) and below what draws it; the browser takes its colours only.
  ["lib/branding/resolve.ts", 'import { evidenceReport } from "../evidence/pdf";'],
  ["lib/branding/branding.ts", 'import { owned } from "@/lib/monitor/scope";'],
  ["lib/mail/templates.ts", 'import { brandHeaderHtml } from "../branding";'],
  ["lib/auth/guard.ts", 'import { getBranding } from "../branding/branding";'],
  ["lib/analyzer/render/print.ts", 'import { brandHeaderHtml } from "../../branding/draw";'],
  ["components/account/branding/BrandingPanel.tsx", 'import { resolveBranding } from "@/lib/branding";'],
  ["components/account/branding/BrandingPanel.tsx", 'import { logoDataUrl } from "@/lib/branding/draw";'],
];

const rightArrows: [string, string][] = [
  ["lib/analyzer/links/extract.ts", 'import { ApiError } from "@/lib/errors";'],
  ["lib/analyzer/worker/paste-body.ts", 'import { MAX_JSON_DEPTH } from "../../limits";'],
  ["lib/analyzer/links/raw-links.ts", 'import { parseHtml } from "../document/parse";'],
  ["lib/analyzer/render/renderer.ts", 'import { assertPublicHost } from "@/lib/net/resolve";'],
  ["lib/net/resolve.ts", 'import type { Config } from "@/lib/config";'],
  ["lib/api/analyze-service.ts", 'import { analyzeUrl } from "@/lib/analyzer";'],
  ["lib/api/analyze-service.ts", 'import { analyzeUrl } from "../analyzer/index";'],
  ["lib/account/audits.ts", 'import { analyzeUrl } from "@/lib/analyzer/index";'],
  ["app/api/demo/analyze/route.ts", 'import { runAnalysis } from "@/lib/api/analyze-service";'],
  ["components/analyzer/Results.tsx", 'import type { Link } from "@/lib/api/schemas";'],
  ["scripts/bench-url.ts", 'import { createRenderer } from "@/lib/analyzer/render/renderer";'],
  ["tests/unit/whatever.test.ts", 'import { renderPage } from "@/lib/analyzer/render/renderer";'],
  // Down the floors: always allowed.
  ["lib/api/analyze-request.ts", 'import { describeZodError } from "../http/error-body";'],
  ["lib/schemas/audits.ts", 'import { LinkSchema } from "../api/schemas";'],
  ["lib/db/schema/monitors.ts", 'import type { LinkState } from "../../schemas/monitors";'],
  ["lib/mail/outbox.ts", 'import { keysetPage } from "../db/keyset";'],
  ["lib/auth/auth.ts", 'import { enqueueEmail } from "../mail/outbox";'],
  ["lib/auth/page-context.ts", 'import { redirect } from "next/navigation";'],
  ["lib/account/team.ts", 'import { recordActivity } from "../auth/activity-log";'],
  ["lib/alerts/deliver.ts", 'import { enqueueEmail } from "../mail/outbox";'],
  ["lib/monitor/run-check.ts", 'import { recordAlertEvents } from "../alerts/events";'],
  ["lib/monitor/run-check.ts", 'import { loadDomainGroups } from "../account/group-lookup";'],
  ["lib/mcp/tools.ts", 'import { runAnalysis } from "@/lib/api/analyze-service";'],
  ["lib/alerts/webhooks.ts", 'import { writeWebhookDeliveries } from "../webhooks";'],
  ["lib/webhooks/disable.ts", 'import { recordActivity } from "../auth/activity-log";'],
  ["lib/webhooks/attempt.ts", 'import { fetchPublic } from "../analyzer";'],
  ["lib/stats/link-uptime.ts", 'import { notFound } from "../monitor/scope";'],
  ["lib/shares/report.ts", 'import { uptimeOfLinks } from "../stats/uptime-query";'],
  ["lib/reports/send.ts", 'import { isActive } from "../shares/open";'],
  ["lib/reports/make-report.ts", 'import { printPdf } from "../analyzer";'],
  ["lib/reports/chart-svg.ts", 'import { barsOf } from "../charts/portfolio-bars";'],
  ["components/charts/PortfolioChart.tsx", 'import { barsOf } from "@/lib/charts/portfolio-bars";'],
  ["server/main.ts", 'import { scheduledReportsTask } from "@/lib/reports/task";'],
  ["components/charts/UptimeStrip.tsx", 'import type { Uptime } from "@/lib/schemas/stats";'],
  ["lib/verdict/reasons.ts", 'import type { Verdict } from "../schemas/verdict";'],
  ["lib/monitor/placement.ts", 'import { bestMatch } from "../verdict";'],
  ["lib/monitor/run-check.ts", 'import { insertEvidence } from "../evidence/record";'],
  ["lib/evidence/pdf.ts", 'import { printPdf } from "../analyzer";'],
  ["lib/mcp/find-link.ts", 'import { verdictOf } from "../verdict";'],
  ["lib/account/audits.ts", 'import { pageSignals } from "../verdict";'],
  ["components/account/TeamPanel.tsx", 'import type { Member } from "@/lib/schemas/team";'],
  ["app/api/account/monitors/route.ts", 'import { OPERATIONS } from "@/lib/schemas/operations";'],
  ["app/api/account/openapi.json/route.ts", 'import { buildAccountOpenApiDocument } from "@/lib/schemas/openapi";'],
  ["app/(app)/app/(main)/monitors/page.tsx", 'import type { Monitor } from "@/lib/schemas/monitors";'],
  ["lib/branding/branding.ts", 'import { recordActivity } from "../auth/activity-log";'],
  ["lib/branding/draw.ts", 'import { html } from "../mail/html";'],
  ["lib/evidence/pdf.ts", 'import { resolveBranding } from "../branding";'],
  ["lib/shares/report.ts", 'import { resolveBranding } from "../branding";'],
  ["components/account/branding/BrandPreview.tsx", 'import { textColorOn } from "@/lib/branding/colors";'],
  ["app/r/[token]/page.tsx", 'import { resolveBranding } from "@/lib/branding";'],
];

describe("the product's folders form no loop", () => {
  it("every import between lib/ folders points down the floors of docs/architecture.md", async () => {
    const fs = await import("node:fs");
    const files = fs
      .readdirSync(path.join(ROOT, "lib"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file));
    const edges = new Set<string>();
    for (const file of files) {
      const from = file.split(path.sep)[0] ?? "";
      const source = fs.readFileSync(path.join(ROOT, "lib", file), "utf8");
      for (const [, spec] of source.matchAll(/from\s+"([^"]+)"/g)) {
        const target = spec?.startsWith("@/lib/")
          ? spec.slice(6)
          : spec?.startsWith(".")
            ? path.relative(path.join(ROOT, "lib"), path.resolve(path.dirname(path.join(ROOT, "lib", file)), spec))
            : null;
        const to = target?.split(/[\\/]/)[0];
        if (
          to &&
          to !== from &&
          !to.endsWith(".ts") &&
          fs.existsSync(path.join(ROOT, "lib", to)) &&
          fs.statSync(path.join(ROOT, "lib", to)).isDirectory()
        )
          edges.add(`${from}>${to}`);
      }
    }
    expect(edges.size).toBeGreaterThan(20);
    // Depth-first search for a cycle of any length between folders.
    const next = (from: string) =>
      [...edges].filter((edge) => edge.startsWith(`${from}>`)).map((edge) => edge.split(">")[1] ?? "");
    const loops: string[] = [];
    const visit = (folder: string, trail: string[]): void => {
      if (trail.includes(folder)) return void loops.push([...trail.slice(trail.indexOf(folder)), folder].join(" → "));
      for (const target of next(folder)) visit(target, [...trail, folder]);
    };
    for (const edge of edges) visit(edge.split(">")[0] ?? "", []);
    expect([...new Set(loops)]).toEqual([]);
  });
});

describe("the analyzer's folders (docs/architecture.md) import each other freely", () => {
  it("no folder of lib/analyzer is named like a layer the analyzer must not import", async () => {
    const fs = await import("node:fs");
    const folders = fs
      .readdirSync(path.join(ROOT, "lib", "analyzer"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(3);
    const refused: string[] = [];
    for (const folder of folders) {
      const neighbour = folders.find((other) => other !== folder) ?? folder;
      const file = `lib/analyzer/${neighbour}/any.ts`;
      const messages = await restrictedImports(file, `import { x } from "../${folder}/any";\nexport { x };\n`);
      if (messages.length > 0) refused.push(`${file} → ../${folder}: ${messages.join("; ")}`);
    }
    expect(refused).toEqual([]);
  });
});

describe("layer boundaries (docs/architecture.md) are lint errors", () => {
  it.each(wrongArrows)("%s: %s is refused", async (file, source) => {
    const messages = await restrictedImports(file, `${source}\nexport {};\n`);
    expect(messages.length, `expected a no-restricted-imports error for ${file}`).toBeGreaterThan(0);
    expect(messages.join("\n")).toContain("docs/architecture.md");
  });

  it.each(rightArrows)("%s: %s is allowed", async (file, source) => {
    expect(await restrictedImports(file, `${source}\nexport {};\n`)).toEqual([]);
  });
});

describe("an account route names its catalog entry, nothing of its own", () => {
  const route = (method: string) => `import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: { operation: OPERATIONS.createMonitor, ${method} handler: async (ctx, { body }) => body },
});
`;
  const syntaxErrors = async (source: string) => {
    const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, "app/api/account/monitors/route.ts") });
    return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-syntax");
  };

  it.each(["permission: { monitor: ['create'] },", "status: 200,", "body: {},", "query: {},"])(
    "%s beside the operation is refused",
    async (property) => {
      const errors = await syntaxErrors(route(property));
      expect(errors.map((error) => error.message).join("\n")).toContain("catalog entry");
    },
  );

  it("the operation and a handler destructuring { body } are fine", async () => {
    expect(await syntaxErrors(route(""))).toEqual([]);
  });
});
