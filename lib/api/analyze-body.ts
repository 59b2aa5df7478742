import { analyzePasteBody, pasteAdmissionRefusal, type AnalysisResult } from "../analyzer";
import type { ApiError } from "../errors";
import type { Config } from "../config";
import { invalidJson, parseJsonBytes, tooDeepJson } from "../http/read-body";
import { log } from "../log";
import { parseAnalyzeRequest } from "./analyze-request";
import { runAnalysis } from "./analyze-service";
import { DEFAULT_PASTE_DOMAIN } from "./schemas";

/**
 * The analyzer request from its raw body to its answer, keeping the server's main thread free of work
 * that grows with the page (docs/performance.md "Issue 28"): a body above INLINE_BODY_BYTES (a paste; a
 * URL-mode body is a few hundred bytes) goes to a worker thread as raw bytes, and the worker parses it,
 * analyses it and encodes the answer (lib/analyzer/worker/paste-body.ts, body-task.ts). This thread then
 * validates the body's skeleton with the rules a small body meets (parseAnalyzeRequest: the same errors,
 * the same messages) and sends the worker's bytes as they are. A small body is parsed here.
 *
 * One difference in order, on purpose: a large body's JSON and shape are judged once a worker has taken
 * it, so while the pool is full a malformed 2 MiB body may get the pool's 429 before its 400.
 */

/** Bodies up to this size are parsed on the calling thread: well under a millisecond. */
export const INLINE_BODY_BYTES = 64 * 1024;

/**
 * The pool's 429 for a body that would go to a worker, decided from its declared length before a byte
 * of it is read (null: read it). Six clients behind one address that each paste 1.9 MB without pause
 * keep that address's waiting line full; before this, every refused paste was read, copied and held
 * first, and those refusals took a third of the main thread (health p99 doubled). A body without a
 * Content-Length is read as before, and admission is asked again when the job is queued.
 */
export function refusalBeforeReading(request: Request, clientKey: string, config: Config): ApiError | null {
  const declared = Number(request.headers.get("content-length"));
  return Number.isFinite(declared) && declared > INLINE_BODY_BYTES ? pasteAdmissionRefusal(clientKey, config) : null;
}

export type AnalyzeAnswer = { kind: "json"; bytes: Uint8Array } | { kind: "result"; result: AnalysisResult };

type AnalysisContext = Parameters<typeof runAnalysis>[1];

/** Runs the analyzer request whose body is `bytes` (they are transferred to a worker: do not reuse them). */
export async function analyzeRequestBody(
  bytes: Uint8Array,
  context: AnalysisContext & { config: Config },
): Promise<AnalyzeAnswer> {
  const { config } = context;
  const limits = { maxHtmlBytes: config.MAX_HTML_BYTES, allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS };
  if (bytes.byteLength <= INLINE_BODY_BYTES) {
    return { kind: "result", result: await runAnalysis(parseAnalyzeRequest(parseJsonBytes(bytes), limits), context) };
  }
  const started = performance.now();
  const outcome = await analyzePasteBody(
    bytes,
    { maxHtmlBytes: config.MAX_HTML_BYTES, defaultDomain: DEFAULT_PASTE_DOMAIN },
    { settings: config, requestId: context.requestId, clientKey: context.clientKey, signal: context.signal },
  );
  if (outcome.kind === "invalid-json") throw invalidJson();
  if (outcome.kind === "too-deep") throw tooDeepJson();
  if (outcome.kind === "refused") {
    // The worker did not analyse it: the API's validation answers (a skeleton always fails it; a whole body may be anything).
    const request = parseAnalyzeRequest(outcome.body, { ...limits, htmlBytes: outcome.htmlBytes ?? undefined });
    if (outcome.htmlBytes !== null) throw new Error("a paste body the worker refused passed validation");
    return { kind: "result", result: await runAnalysis(request, context) };
  }
  const request = parseAnalyzeRequest(outcome.skeleton, { ...limits, htmlBytes: outcome.htmlBytes });
  if (request.mode !== "paste" || request.domain !== outcome.domain)
    throw new Error("the worker and the API read a paste body differently");
  log.info(
    {
      requestId: context.requestId,
      mode: "paste",
      htmlBytes: outcome.htmlBytes,
      links: outcome.stats.total,
      broken: outcome.stats.broken,
      analysisMs: Math.round(performance.now() - started),
    },
    "analysis done",
  );
  return { kind: "json", bytes: outcome.json };
}
