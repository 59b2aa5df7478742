import type { EvidenceShot } from "../analyzer";
import { googleShotPosition, wantsGoogleShot } from "../evidence/google-shot";
import type { Verdict } from "../schemas/verdict";
import type { GoogleViewOutcome } from "./google-view";
import { matchesTarget, type TrackedTarget } from "./match";

/**
 * Googlebot's screenshot for an evidence record (google-view.md §2): taken from the Google view this check
 * or capture rendered itself (its page kept open), only when the record's verdict says the two views
 * differ. The link is outlined where Googlebot's render has it (`shown_only_to_googlebot`); a link it does
 * not have (`not_in_google_view`) gets the top of Googlebot's page. Null when no fresh render stands (the
 * view kept with the monitor has no page to photograph) or the page can no longer be photographed.
 */
export async function shootGoogleView(
  google: GoogleViewOutcome,
  tracked: TrackedTarget,
  verdict: Verdict | null,
): Promise<EvidenceShot | null> {
  const camera = google.fresh?.camera;
  if (!camera || !wantsGoogleShot(verdict)) return null;
  const position = googleShotPosition(google.fresh?.links ?? null, (href) => matchesTarget(href, tracked));
  return camera.shoot(position);
}
