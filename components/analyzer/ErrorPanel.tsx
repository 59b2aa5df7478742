"use client";

import { useNow } from "./useTicker";
import type { AnalyzeFailure } from "./useAnalyze";

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h ${minutes % 60}m` : `${Math.round(hours / 24)} days`;
}

function RetryCountdown({ retryAt, receivedAt }: { retryAt: number; receivedAt: number }) {
  const now = useNow(true, receivedAt, 1000);
  const seconds = Math.max(0, Math.ceil((retryAt - now) / 1000));
  return (
    <p className="mt-2 text-sm font-semibold" data-testid="retry-countdown">
      {seconds > 0 ? (
        <>
          You can try again in <span className="tabular-nums">{formatWait(seconds)}</span>.
        </>
      ) : (
        "You can try again now."
      )}
    </p>
  );
}

/** The API's own error and hint, word for word, next to the form; a 429 counts down to the reset. */
export function ErrorPanel({ failure }: { failure: AnalyzeFailure | null }) {
  return (
    <div role="alert" data-testid="error-panel" className="empty:hidden">
      {failure && (
        <div className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
          <p className="font-semibold">
            {failure.error}
            {failure.errorCode && (
              <span className="ml-2 font-mono text-xs font-medium text-red-800 dark:text-red-300">
                {failure.errorCode}
              </span>
            )}
          </p>
          <p className="mt-1 text-sm">{failure.hint}</p>
          {failure.retryAt !== null && (
            <RetryCountdown key={failure.receivedAt} retryAt={failure.retryAt} receivedAt={failure.receivedAt} />
          )}
          {failure.docs && (
            <a
              href={failure.docs}
              className="mt-2 inline-block text-sm font-medium text-red-900 underline underline-offset-2 dark:text-red-200"
            >
              Error reference
            </a>
          )}
        </div>
      )}
    </div>
  );
}
