"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/account/api";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import { AuditSchema } from "@/lib/schemas/audits";

const linkButtonClass =
  "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800";

/**
 * A saved audit's actions for members and up: the API's exports (a plain link: the browser downloads
 * the streamed file with the session cookie), re-run (a new audit of the same input) and delete (asks
 * once more before it happens). Viewers get none of these.
 */
export function AuditActions({ auditId }: { auditId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState<"rerun" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const exportHref = (format: "csv" | "json") =>
    `/api/account/audits/${encodeURIComponent(auditId)}/export?format=${format}`;

  async function rerun() {
    setBusy("rerun");
    setError(null);
    const result = await api(
      "POST",
      `/api/account/audits/${encodeURIComponent(auditId)}/rerun`,
      undefined,
      AuditSchema,
    );
    if (result.ok) {
      router.push(`/app/audits/${result.data.id}`);
      return;
    }
    setBusy(null);
    setError(result.error);
  }

  async function remove() {
    setBusy("delete");
    setError(null);
    const result = await api("DELETE", `/api/account/audits/${encodeURIComponent(auditId)}`);
    if (result.ok) {
      router.push("/app/audits");
      router.refresh();
      return;
    }
    setBusy(null);
    setConfirming(false);
    setError(result.error);
  }

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        <a className={linkButtonClass} href={exportHref("csv")} download>
          Export CSV
        </a>
        <a className={linkButtonClass} href={exportHref("json")} download>
          Export JSON
        </a>
        <button type="button" className={secondaryButtonClass} disabled={busy !== null} onClick={() => void rerun()}>
          {busy === "rerun" ? "Re-running…" : "Re-run"}
        </button>
        {confirming ? (
          <span className="inline-flex items-center gap-2 rounded-md bg-red-50 px-2 py-1 text-sm text-red-900 ring-1 ring-red-200 dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900">
            Delete this audit?
            <button
              type="button"
              className="font-semibold underline"
              disabled={busy !== null}
              onClick={() => void remove()}
            >
              {busy === "delete" ? "Deleting…" : "Yes, delete"}
            </button>
            <button type="button" className="underline" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy !== null}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        )}
      </div>
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
