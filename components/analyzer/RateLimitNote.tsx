import type { RateLimitInfo } from "./useAnalyze";

/** "7 of 10 analyses left this minute", after every answer that carried the headers. */
export function RateLimitNote({ rateLimit }: { rateLimit: RateLimitInfo | null }) {
  if (!rateLimit) return null;
  const low = rateLimit.remaining === 0;
  return (
    <p data-testid="rate-limit" className={`text-xs tabular-nums ${low ? "font-semibold text-amber-800 dark:text-amber-300" : "text-slate-600 dark:text-slate-400"}`}>
      {rateLimit.remaining} of {rateLimit.limit} analyses left this minute
    </p>
  );
}
