/**
 * Time arithmetic shared by both stores: month keys and the "when is there room again" answers.
 * Kept pure (no clock, no I/O) so every edge is unit-testable.
 */

/** `YYYY-MM` of the UTC calendar month containing `nowMs`; the budget key suffix. */
export function monthKey(nowMs: number): string {
  const date = new Date(nowMs);
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** Unix seconds of the first instant of the UTC month after the one containing `nowMs`. */
export function nextMonthStartSeconds(nowMs: number): number {
  const date = new Date(nowMs);
  // Date.UTC rolls month 12 over to January of the next year.
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

/**
 * Whole Unix seconds at or after `ms`. A client that waits until this second is never early,
 * which is what `X-RateLimit-Reset` promises.
 */
export function ceilSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * Reset for an exact sliding log. `timestamps` are the counted requests (ascending, each counted while
 * `now < t + window`). Answers the first whole second at which fewer than `target` requests are counted,
 * where `target` is min(count, limit): for a refused request that is "room for one more", for an allowed
 * one "the oldest counted request has left". With nothing counted: now + window.
 */
export function resetForLog(timestamps: readonly number[], limit: number, windowMs: number, nowMs: number): number {
  const count = timestamps.length;
  const target = Math.min(count, limit);
  if (count === 0 || target <= 0) return ceilSeconds(nowMs + windowMs);
  // Dropping to target - 1 means the first (count - target + 1) entries must have left the window.
  const freeing = timestamps[count - target] ?? nowMs;
  return ceilSeconds(freeing + windowMs);
}

/**
 * The count @upstash/ratelimit's slidingWindow uses: the current fixed bucket plus the previous bucket
 * weighted by how much of it still overlaps the window, floored (same formula as its Lua script).
 */
export function weightedCount(current: number, previous: number, windowMs: number, nowMs: number): number {
  const fraction = (nowMs % windowMs) / windowMs;
  return Math.floor((1 - fraction) * previous) + current;
}

/**
 * Reset for @upstash/ratelimit's weighted two-bucket window, given the counts of the bucket containing
 * `nowMs` (`current`) and the one before (`previous`). Its own `reset` (end of the current bucket) is not
 * usable: right after that instant the previous bucket still weighs ~100 %, so a client that waited for
 * it would be refused again. We solve for the first instant the weighted count drops below `target`
 * (same targets as {@link resetForLog}), assuming no further requests, and round up to a whole second
 * strictly after it (the Lua comparison is strict on integer milliseconds).
 */
export function resetForWeightedWindow(
  current: number,
  previous: number,
  limit: number,
  windowMs: number,
  nowMs: number,
): number {
  const used = weightedCount(current, previous, windowMs, nowMs);
  const target = Math.min(used, limit);
  if (used === 0 || target <= 0) return ceilSeconds(nowMs + windowMs);
  const bucketStart = Math.floor(nowMs / windowMs) * windowMs;
  const nextBucketStart = bucketStart + windowMs;
  let instant: number;
  if (target - current >= 1) {
    // Still inside this bucket: floor((1 - f) * previous) < target - current  <=>  f > 1 - (target - current) / previous.
    instant = previous === 0 ? nowMs : bucketStart + windowMs * (1 - (target - current) / previous);
  } else {
    // Only when this bucket becomes "previous": floor((1 - f) * current) < target  <=>  f > 1 - target / current.
    instant = current === 0 ? nextBucketStart : nextBucketStart + windowMs * Math.max(0, 1 - target / current);
  }
  return Math.floor(Math.max(instant, nowMs) / 1000) + 1;
}
