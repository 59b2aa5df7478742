/** decisions.md: anchor text is at most 1,000 characters (counted in Unicode code points). */
export const ANCHOR_TEXT_MAX = 1000;

// Enough UTF-16 units to hold ANCHOR_TEXT_MAX code points plus one, so truncation is exact while
// a huge text node inside a link costs no more than this much string building.
const BUFFER_LIMIT = ANCHOR_TEXT_MAX * 2 + 2;

// JavaScript's \s: ASCII whitespace plus NBSP and the other Unicode spaces. A link whose text is
// only &nbsp; reads as empty to a person, so it falls back to alt/aria-label/title like an empty one.
const WHITESPACE_RUN = /\s+/g;
const LEADING_WHITESPACE = /^\s/;
const TRAILING_WHITESPACE = /\s$/;

/**
 * Collapses whitespace incrementally while text arrives in pieces (one per text node), keeping at
 * most BUFFER_LIMIT units: the same result as collapsing the concatenation, without building it.
 */
export class CollapsedText {
  private value = "";
  /** Whitespace came before the first non-whitespace character. */
  private leadingSpace = false;
  /** Whitespace came after the last non-whitespace character. */
  private pendingSpace = false;

  /** Appends raw text; whitespace runs become one space, edges are trimmed in result(). */
  append(raw: string): void {
    if (this.value.length >= BUFFER_LIMIT || raw === "") return;
    const collapsed = raw.replace(WHITESPACE_RUN, " ");
    const startsWithSpace = LEADING_WHITESPACE.test(collapsed);
    const endsWithSpace = TRAILING_WHITESPACE.test(collapsed);
    const core = collapsed.trim();
    this.join(core, startsWithSpace, endsWithSpace);
  }

  /** Appends another buffer as if its raw text followed ours (how a nested link's text folds in). */
  appendText(other: CollapsedText): void {
    if (this.value.length >= BUFFER_LIMIT) return;
    this.join(other.value, other.leadingSpace, other.pendingSpace);
  }

  /** Appends another buffer as a separate word (image alts are joined with single spaces). */
  appendWord(other: CollapsedText): void {
    if (this.value.length >= BUFFER_LIMIT || other.value === "") return;
    this.join(other.value, true, false);
  }

  private join(core: string, startsWithSpace: boolean, endsWithSpace: boolean): void {
    if (core === "") {
      if (this.value === "") this.leadingSpace ||= startsWithSpace || endsWithSpace;
      else this.pendingSpace ||= startsWithSpace || endsWithSpace;
      return;
    }
    if (this.value === "") this.leadingSpace ||= startsWithSpace;
    else if (this.pendingSpace || startsWithSpace) this.value += " ";
    this.value += core;
    this.pendingSpace = endsWithSpace;
    if (this.value.length > BUFFER_LIMIT) this.value = this.value.slice(0, BUFFER_LIMIT);
  }

  /** The collapsed, trimmed text, cut to ANCHOR_TEXT_MAX code points; null when empty. */
  result(): string | null {
    return this.value === "" ? null : truncateCodePoints(this.value, ANCHOR_TEXT_MAX);
  }
}

/** Cuts `text` to at most `max` code points without splitting a surrogate pair. */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
    points += 1;
  }
  return text.slice(0, units);
}

/** Collapses and trims one attribute value (aria-label, title); null when nothing is left. */
export function collapseAttribute(value: string | null): string | null {
  if (value === null) return null;
  const buffer = new CollapsedText();
  buffer.append(value);
  return buffer.result();
}

/**
 * What the single document walk gathers for one captured link. Nested links (possible through
 * tables: `<a><table><td><a>`) fold their gathered text into their parent's when they close, so
 * the walk stays linear in the document size instead of walking each link's subtree again.
 */
export class AnchorAccumulator {
  readonly text = new CollapsedText();
  /** Non-empty image alts (and an `<area>`'s own alt), joined with single spaces. */
  readonly alts = new CollapsedText();
  isImage = false;

  /** Folds a closed nested link into this one (textContent of the outer link includes it). */
  absorb(child: AnchorAccumulator): void {
    this.text.appendText(child.text);
    this.alts.appendWord(child.alts);
    if (child.isImage) this.isImage = true;
  }

  /** Adds one image's alt text (ignored when empty). */
  addAlt(alt: string | null): void {
    if (alt === null) return;
    const collapsed = new CollapsedText();
    collapsed.append(alt);
    this.alts.appendWord(collapsed);
  }
}

/**
 * decisions.md fallback chain: the link's text, else the alts of images inside, else aria-label,
 * else title, else null.
 */
export function chooseAnchorText(
  accumulator: AnchorAccumulator,
  ariaLabel: string | null,
  title: string | null,
): string | null {
  return (
    accumulator.text.result() ?? accumulator.alts.result() ?? collapseAttribute(ariaLabel) ?? collapseAttribute(title)
  );
}
