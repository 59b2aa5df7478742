/**
 * A tagged template for email HTML that escapes every interpolated value unless it is already HTML made
 * by this tag. Page titles, anchors and URLs come from pages we do not control: an anchor text
 * `<img src=x onerror=alert(1)>` must arrive as text, so escaping is the default, not a step to remember.
 *
 *   html`<p>${anchorText}</p>`            → escaped
 *   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`   → nested fragments kept
 */

const SAFE = Symbol("linklens.safeHtml");

export interface SafeHtml {
  readonly [SAFE]: true;
  readonly value: string;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SAFE] === true;
}

type Part = SafeHtml | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (Array.isArray(part)) return part.map(render).join("");
  if (isSafe(part)) return part.value;
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return { [SAFE]: true, value: out };
}

/** An attribute-safe URL: only http(s) links become hrefs (a `javascript:` URL from a page stays text). */
export function safeHref(url: string): string {
  return /^https?:\/\//i.test(url) ? url : "#";
}
