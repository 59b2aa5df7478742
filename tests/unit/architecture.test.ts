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
  return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

const wrongArrows: [string, string][] = [
  ["lib/analyzer/extract.ts", 'import { errorResponse } from "@/lib/http/response";'],
  ["lib/analyzer/extract.ts", 'import { errorResponse } from "../api/http";'],
  ["lib/analyzer/extract.ts", 'import { NextResponse } from "next/server";'],
  ["lib/analyzer/extract.ts", 'import { checkRequestLimit } from "@/lib/ratelimit";'],
  ["lib/net/resolve.ts", 'import { renderPage } from "@/lib/analyzer/render";'],
  ["lib/net/resolve.ts", 'import { useState } from "react";'],
  ["lib/net/resolve.ts", 'import { describeZodError } from "../api/errors";'],
  ["lib/api/analyze-service.ts", 'import { renderPage } from "../analyzer/render";'],
  ["lib/api/analyze-service.ts", 'import { resolveChecked } from "@/lib/net/resolve";'],
  ["lib/account/audits.ts", 'import { checkLinks } from "@/lib/analyzer/check-links";'],
  ["lib/monitor/scheduler.ts", 'import { AnalyzerPool } from "../analyzer/worker-pool";'],
  ["app/api/demo/analyze/route.ts", 'import { renderPage } from "@/lib/analyzer/render";'],
  ["components/analyzer/Results.tsx", 'import { analyzeDocument } from "@/lib/analyzer/pipeline";'],
  ["components/analyzer/Results.tsx", 'import "@/server/main";'],
  ["scripts/bench.ts", 'import { startCanary } from "@/tests/helpers/canary";'],
  ["scripts/lib/corpus.ts", 'import { startCanary } from "../../tests/helpers/canary";'],
  ["lib/errors.ts", 'import { z } from "zod";'],
  ["lib/config.ts", 'import { ApiError } from "./errors";'],
  ["lib/ratelimit/limiter.ts", 'import { jsonResponse } from "@/lib/http/response";'],
];

const rightArrows: [string, string][] = [
  ["lib/analyzer/extract.ts", 'import { ApiError } from "@/lib/errors";'],
  ["lib/analyzer/render.ts", 'import { assertPublicHost } from "@/lib/net/resolve";'],
  ["lib/net/resolve.ts", 'import type { Config } from "@/lib/config";'],
  ["lib/api/analyze-service.ts", 'import { analyzeUrl } from "@/lib/analyzer";'],
  ["lib/api/analyze-service.ts", 'import { analyzeUrl } from "../analyzer/index";'],
  ["lib/account/audits.ts", 'import { analyzeUrl } from "@/lib/analyzer/index";'],
  ["app/api/demo/analyze/route.ts", 'import { runAnalysis } from "@/lib/api/analyze-service";'],
  ["components/analyzer/Results.tsx", 'import type { Link } from "@/lib/api/schemas";'],
  ["scripts/bench-url.ts", 'import { createRenderer } from "@/lib/analyzer/render";'],
  ["tests/unit/whatever.test.ts", 'import { renderPage } from "@/lib/analyzer/render";'],
];

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
