"use client";

import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { AnalyzeForm } from "@/components/analyzer/AnalyzeForm";
import { ErrorPanel } from "@/components/analyzer/ErrorPanel";
import type { AnalyzeFailure, AnalyzeMode, AnalyzePending } from "@/components/analyzer/useAnalyze";
import { ErrorSchema, type DemoAnalyzeRequest } from "@/lib/api/schemas";
import { AuditSchema } from "@/lib/schemas/audits";

/** X-RateLimit-Remaining / -Limit of the team's daily audits, after the last answer that carried them. */
interface Quota {
  remaining: number;
  limit: number;
}

async function errorOf(response: Response): Promise<AnalyzeFailure> {
  const receivedAt = Date.now();
  const parsed = ErrorSchema.safeParse(await response.json().catch(() => null));
  const body = parsed.success ? parsed.data : null;
  const retryAfter = Number(response.headers.get("Retry-After"));
  return {
    status: response.status,
    error: body?.error ?? `The audit failed (HTTP ${response.status}).`,
    hint: body?.hint ?? "Try again in a moment.",
    errorCode: body?.errorCode ?? null,
    docs: body?.docs ?? null,
    retryAt: response.status === 429 && retryAfter > 0 ? receivedAt + retryAfter * 1000 : null,
    receivedAt,
  };
}

/**
 * The landing page's two-mode form, saving to the team instead: POST /api/account/audits, then the
 * saved audit's page. Errors are the API's own words (ErrorPanel, with the countdown on a 429).
 */
export function NewAuditForm() {
  const router = useRouter();
  const [pending, setPending] = useState<AnalyzePending | null>(null);
  const [failure, setFailure] = useState<AnalyzeFailure | null>(null);
  const [quota, setQuota] = useState<Quota | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    setPending(null);
  }, []);

  async function run(request: DemoAnalyzeRequest, mode: AnalyzeMode) {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setPending({ mode, startedAt: Date.now() });
    setFailure(null);
    let response: Response;
    try {
      response = await fetch("/api/account/audits", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted) return;
      setPending(null);
      setFailure({
        status: 0,
        error: "Could not reach LinkLens.",
        hint: "Check your connection and try again.",
        errorCode: null,
        docs: null,
        retryAt: null,
        receivedAt: Date.now(),
      });
      return;
    }
    const remaining = Number(response.headers.get("X-RateLimit-Remaining"));
    const limit = Number(response.headers.get("X-RateLimit-Limit"));
    if (response.headers.has("X-RateLimit-Limit") && Number.isFinite(remaining) && Number.isFinite(limit))
      setQuota({ remaining, limit });
    if (response.status === 201) {
      // Only a saved audit the page understands is opened; anything else is shown as a failure.
      const audit = AuditSchema.safeParse(await response.json().catch(() => null));
      if (audit.success) {
        router.push(`/app/audits/${audit.data.id}`);
        return;
      }
    }
    setPending(null);
    setFailure(await errorOf(response));
  }

  return (
    <div className="space-y-3">
      <AnalyzeForm pending={pending} onAnalyze={(request, mode) => void run(request, mode)} onCancel={cancel} />
      <ErrorPanel failure={failure} />
      {quota && (
        <p
          data-testid="audit-quota"
          className={`text-xs tabular-nums ${quota.remaining === 0 ? "font-semibold text-amber-800 dark:text-amber-300" : "text-slate-600 dark:text-slate-400"}`}
        >
          {quota.remaining} of {quota.limit} audits left today (UTC)
        </p>
      )}
    </div>
  );
}
