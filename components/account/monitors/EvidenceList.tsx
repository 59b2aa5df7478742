"use client";

import { pageOf } from "@/lib/schemas/common";
import { EvidenceSchema } from "@/lib/schemas/evidence";
import { evidencePath } from "../answers";
import { Notice } from "../ui";
import { useApiPages } from "../use-api";
import { EvidenceRecord } from "./EvidenceRecord";

const EvidencePageSchema = pageOf(EvidenceSchema);

/**
 * A tracked link's evidence, newest first, a page at a time, read when the disclosure opens. A capture
 * (MonitorDetail) reads it again from the top.
 */
export function EvidenceList({ id, linkId, target }: { id: string; linkId: string; target: string }) {
  const list = useApiPages(evidencePath(linkId), EvidencePageSchema);
  const items = list.pages.length === 0 ? null : list.items;
  const { error, loading, nextCursor } = list;

  return (
    <section
      id={id}
      aria-label={`Evidence of ${target}`}
      className="col-span-2 rounded-md bg-slate-50 px-3 py-1 lg:col-span-6 dark:bg-slate-800/40"
      data-testid="evidence-list"
    >
      {items === null ? (
        !error && <p className="py-2 text-sm text-slate-600 dark:text-slate-400">Loading evidence…</p>
      ) : items.length === 0 ? (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-400">
          No evidence yet. It is captured when a check first sees the link live or sees its state or verdict change, and
          whenever a member captures it.
        </p>
      ) : (
        <ol className="divide-y divide-slate-200 dark:divide-slate-700">
          {items.map((evidence) => (
            <EvidenceRecord key={evidence.id} evidence={evidence} />
          ))}
        </ol>
      )}
      {error && (
        <div className="py-2">
          <Notice kind="error">{error}</Notice>
        </div>
      )}
      {nextCursor && (
        <button
          type="button"
          className="mb-2 text-sm font-medium text-blue-700 hover:underline disabled:opacity-60 dark:text-blue-300"
          disabled={loading}
          onClick={() => void list.loadMore()}
        >
          {loading ? "Loading…" : "Show more"}
        </button>
      )}
    </section>
  );
}
