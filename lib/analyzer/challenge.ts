/**
 * Bot walls and challenge pages: a 2xx answer whose document is an interstitial ("Just a moment…",
 * "Attention Required!", a CAPTCHA) instead of the page. A monitor must never read one as "the link is
 * gone": monitors that called a Cloudflare challenge a lost link are their users' top complaint.
 *
 * Conservative on purpose: a page merely embedding a CAPTCHA widget in a form is a page. Only the
 * vendors' interstitial markers and titles count, and a header that names the challenge.
 */

/** Titles of the common interstitials (Cloudflare, Sucuri, DDoS-Guard, Imperva, generic "verify you are human"). */
const CHALLENGE_TITLES = [
  /^just a moment(\.{3}|…)?$/i,
  /^attention required!? \| cloudflare/i,
  /^please wait\b.*(cloudflare|security|verif)/i,
  /^checking (your|if the site connection is) /i,
  /^ddos-guard\b/i,
  /^(verifying|verify) (that )?you are (a )?human/i,
  /^are you a (human|robot)\b/i,
  /^access denied\b.*\b(cloudflare|sucuri|incapsula|imperva|akamai)/i,
  /^sucuri website firewall/i,
  /^pardon our interruption\b/i,
];

/** Markup only the interstitials carry (their scripts and forms), never an ordinary page. */
const CHALLENGE_MARKERS = [
  "window._cf_chl_opt",
  // Cloudflare's challenge orchestration (ordinary Cloudflare pages load /challenge-platform/scripts/jsd/ instead).
  "/orchestrate/chl_page/",
  "/orchestrate/managed/",
  "/orchestrate/jsch/",
  'id="challenge-form"',
  "captcha-delivery.com/captcha", // DataDome's interstitial
  'id="px-captcha"', // PerimeterX / HUMAN "press and hold"
  "_Incapsula_Resource",
  "ddos-guard.net/ddos-guard",
];

/** Whether a document looks like a challenge page, from its title and markup. */
export function documentLooksLikeChallenge(title: string | null, html: string): boolean {
  if (title !== null && CHALLENGE_TITLES.some((pattern) => pattern.test(title.trim()))) return true;
  return CHALLENGE_MARKERS.some((marker) => html.includes(marker));
}

/** Whether response headers say the answer is a challenge (Cloudflare's `cf-mitigated: challenge`). */
export function headersSayChallenge(headers: Record<string, string | undefined>): boolean {
  return (headers["cf-mitigated"] ?? "").toLowerCase().includes("challenge");
}
