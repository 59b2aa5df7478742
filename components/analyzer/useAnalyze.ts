"use client";

import { useCallback, useRef, useState } from "react";
import {
  DemoAnalyzeSuccessSchema,
  ErrorSchema,
  type DemoAnalyzeRequest,
  type DemoAnalyzeSuccess,
} from "@/lib/api/schemas";

export type AnalyzeMode = "url" | "paste";

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Unix seconds at which the limit next has room (X-RateLimit-Reset). */
  reset: number;
  /** Epoch ms when the answer arrived, to tell the per-minute limit from the monthly URL budget. */
  receivedAt: number;
}

export interface AnalyzeFailure {
  status: number;
  error: string;
  hint: string;
  errorCode: string | null;
  docs: string | null;
  /** Epoch milliseconds after which a retry can succeed; set on 429. */
  retryAt: number | null;
  receivedAt: number;
}

export interface AnalyzeSuccess {
  data: DemoAnalyzeSuccess;
  request: DemoAnalyzeRequest;
  mode: AnalyzeMode;
  /** Increments per answer, so views keyed on it reset their local state (selection, filters). */
  id: number;
}

export interface AnalyzePending {
  mode: AnalyzeMode;
  startedAt: number;
}

function intHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

function rateLimitOf(headers: Headers, receivedAt: number): RateLimitInfo | null {
  const limit = intHeader(headers, "X-RateLimit-Limit");
  const remaining = intHeader(headers, "X-RateLimit-Remaining");
  const reset = intHeader(headers, "X-RateLimit-Reset");
  return limit === null || remaining === null || reset === null ? null : { limit, remaining, reset, receivedAt };
}

/** When to retry after a 429: X-RateLimit-Reset (Unix seconds), else Retry-After (seconds). */
function retryAtOf(headers: Headers, receivedAt: number): number | null {
  const reset = intHeader(headers, "X-RateLimit-Reset");
  if (reset !== null) return reset * 1000;
  const retryAfter = intHeader(headers, "Retry-After");
  return retryAfter === null ? null : receivedAt + retryAfter * 1000;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * Calls POST /api/demo/analyze, the same public operation every client uses, and validates both
 * answers with the shared schemas. One request at a time; a new one (or cancel) aborts the old.
 */
export function useAnalyze() {
  const [pending, setPending] = useState<AnalyzePending | null>(null);
  const [result, setResult] = useState<AnalyzeSuccess | null>(null);
  const [failure, setFailure] = useState<AnalyzeFailure | null>(null);
  const [rateLimit, setRateLimit] = useState<RateLimitInfo | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  const answersRef = useRef(0);

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    setPending(null);
  }, []);

  const analyze = useCallback(async (request: DemoAnalyzeRequest, mode: AnalyzeMode) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setPending({ mode, startedAt: Date.now() });
    setFailure(null);

    let response: Response;
    try {
      response = await fetch("/api/demo/analyze", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(request),
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      controllerRef.current = null;
      setPending(null);
      setFailure({
        status: 0,
        error: "Could not reach LinkLens.",
        hint: `Check your connection and try again. (${error instanceof Error ? error.message : "network error"})`,
        errorCode: null,
        docs: null,
        retryAt: null,
        receivedAt: Date.now(),
      });
      return;
    }

    const body = await readJson(response);
    if (controller.signal.aborted) return;
    controllerRef.current = null;
    const receivedAt = Date.now();
    setPending(null);
    setRateLimit((previous) => rateLimitOf(response.headers, receivedAt) ?? previous);

    if (response.ok) {
      const parsed = DemoAnalyzeSuccessSchema.safeParse(body);
      if (parsed.success) {
        answersRef.current += 1;
        setResult({ data: parsed.data, request, mode, id: answersRef.current });
        return;
      }
    }
    const error = ErrorSchema.safeParse(body);
    setFailure(
      error.success
        ? {
            status: response.status,
            error: error.data.error,
            hint: error.data.hint,
            errorCode: error.data.errorCode,
            docs: error.data.docs,
            retryAt: response.status === 429 ? retryAtOf(response.headers, receivedAt) : null,
            receivedAt,
          }
        : {
            status: response.status,
            error: `Unexpected answer from the server (HTTP ${response.status}).`,
            hint: "Try again in a moment. If it keeps happening, the API docs list what each status means.",
            errorCode: null,
            docs: "/docs",
            retryAt: null,
            receivedAt,
          },
    );
  }, []);

  return { pending, result, failure, rateLimit, analyze, cancel };
}
