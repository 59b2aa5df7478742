"use client";

import { useNow } from "./useTicker";
import type { AnalyzePending } from "./useAnalyze";

const PROGRESS_TEXT = {
  url: "Rendering the page and checking links…",
  paste: "Classifying links…",
} as const;

function Spinner() {
  return (
    <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
  );
}

function Progress({ pending }: { pending: AnalyzePending }) {
  const now = useNow(true, pending.startedAt);
  const seconds = Math.floor((now - pending.startedAt) / 1000);
  return (
    <>
      <Spinner />
      <span>
        {PROGRESS_TEXT[pending.mode]} <span className="tabular-nums">{seconds}s</span>
      </span>
    </>
  );
}

/**
 * The Analyze button. While a request runs it says what is happening and for how long; it stays
 * focusable (aria-disabled, not disabled) so keyboard focus is not thrown away mid-request.
 */
export function SubmitButton({ pending, onCancel }: { pending: AnalyzePending | null; onCancel: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="submit"
        aria-disabled={pending !== null}
        className="inline-flex min-h-10 items-center gap-2 rounded-lg bg-blue-700 px-5 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-disabled:cursor-progress aria-disabled:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700 dark:aria-disabled:bg-blue-700"
      >
        {pending ? <Progress pending={pending} /> : "Analyze"}
      </button>
      {pending && (
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-slate-300"
        >
          Cancel
        </button>
      )}
      <p role="status" className="sr-only">
        {pending ? `${PROGRESS_TEXT[pending.mode]} This can take a few seconds.` : ""}
      </p>
    </div>
  );
}
