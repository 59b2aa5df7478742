import type { RateLimitInfo } from "./useAnalyze";

/**
 * "7 of 10 analyses left this minute", after every answer that carried the headers. When the
 * monthly URL budget is what answered (its reset is days away), say until when instead.
 */
export function RateLimitNote({ rateLimit }: { rateLimit: RateLimitInfo | null }) {
  if (!rateLimit) return null;
  const low = rateLimit.remaining === 0;
  const longWindow = rateLimit.reset * 1000 - rateLimit.receivedAt > 5 * 60_000;
  const until = longWindow
    ? `until ${new Date(rateLimit.reset * 1000).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })}`
    : "this minute";
  return (
    <p
      data-testid="rate-limit"
      className={`text-xs tabular-nums ${low ? "font-semibold text-amber-800 dark:text-amber-300" : "text-slate-600 dark:text-slate-400"}`}
    >
      {rateLimit.remaining} of {rateLimit.limit} {longWindow ? "URL analyses" : "analyses"} left {until}
    </p>
  );
}
