import type { Verdict, VerdictReason } from "../schemas/verdict";

/**
 * When an evidence record also keeps a PNG of Googlebot's render (google-view.md §2): exactly when its
 * verdict says the two views differ, so the proof shows what Google saw beside what a visitor saw.
 */

/** The reasons that come from comparing the visitor's render with Googlebot's. */
export const GOOGLE_VIEW_REASONS: readonly VerdictReason[] = ["not_in_google_view", "shown_only_to_googlebot"];

/** Whether a record with this verdict keeps Googlebot's screenshot. */
export function wantsGoogleShot(verdict: Verdict | null): boolean {
  return verdict !== null && verdict.reasons.some((reason) => GOOGLE_VIEW_REASONS.includes(reason));
}

/**
 * Where Googlebot's screenshot points: the first link of its render that matches the tracked link (1-based
 * position in that render's own order), or null (the top of the page) when it has none — the link
 * Googlebot does not get, `not_in_google_view`.
 */
export function googleShotPosition(
  googleLinks: readonly { href: string; position: number }[] | null,
  matches: (href: string) => boolean,
): number | null {
  return googleLinks?.find((link) => matches(link.href))?.position ?? null;
}
