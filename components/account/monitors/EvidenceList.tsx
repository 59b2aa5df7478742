"use client";

import { useCallback, useEffect, useState } from "react";
import type { Evidence } from "@/lib/schemas/evidence";
import { api } from "../api";
import { Notice } from "../ui";
import { EvidenceRecord } from "./EvidenceRecord";

/** Records a page: a tracked link changes rarely, so a few cover months. */
const PAGE_SIZE = 10;

type Page = { items: Evidence[]; nextCursor: string | null };

/**
 * A tracked link's evidence, newest first, a page at a time. A new `version` (a capture just made) reads
 * it again from the top.
 */
export function EvidenceList({
  id,
  linkId,
  target,
  version,
}: {
  id: string;
  linkId: string;
  target: string;
  version: number;
}) {
  const [items, setItems] = useState<Evidence[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (cursor: string | null) => {
      setLoading(true);
      setError(null);
      const result = await api<Page>(
        "GET",
        `/api/account/links/${encodeURIComponent(linkId)}/evidence?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      setLoading(false);
      if (!result.ok) return setError(result.error);
      setItems((shown) => (cursor && shown ? [...shown, ...result.data.items] : result.data.items));
      setNextCursor(result.data.nextCursor);
    },
    [linkId],
  );

  useEffect(() => {
    // Loading from the API is the effect's purpose (the disclosure opens before its records arrive).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load(null);
  }, [load, version]);

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
          onClick={() => void load(nextCursor)}
        >
          {loading ? "Loading…" : "Show more"}
        </button>
      )}
    </section>
  );
}
