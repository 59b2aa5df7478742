/**
 * The visibility pass of a signed-in render (placement-verdict.md "Link signals", `hidden`): one script
 * evaluated in the already rendered page, at the analyzer's desktop viewport (1280×800), just before the
 * DOM is serialized. It marks every `a[href]` and `area[href]` with `data-linklens-hidden="<nonce>1"`
 * (cannot be seen) or `"<nonce>0"`; the extractor (lib/analyzer/links/extract.ts) reads the mark and
 * removes it, so the snapshot and the public answer never show it. The nonce is new for every render, so
 * a page cannot forge our verdict by writing the attribute itself.
 *
 * Links inside shadow roots are links of the page (google-view.md §1): the pass takes the links and their
 * ancestors from the flattened tree (shadow-roots.ts), so a host's `overflow: hidden; height: 0` hides
 * the links of its shadow tree, and a slotted link is judged inside its slot. A page that lost the keeper
 * (it replaced its document) is judged on its light tree as before.
 *
 * A link cannot be seen when:
 *  - it or an ancestor has no box (`display: none`), `visibility: hidden|collapse` (computed, so a
 *    visible child of a hidden parent is visible), `opacity: 0`, or `content-visibility: hidden`
 *    (Element.checkVisibility);
 *  - its box has zero width or height and no descendant (text included) has a non-empty box;
 *  - its box lies entirely outside the document (`left: -9999px`): the whole document counts as
 *    scrollable, so a link below the fold is visible. A link outside the document but inside a
 *    scroller or carousel (an ancestor that clips its overflow and is itself on the page) is visible:
 *    the page's own controls bring it into view;
 *  - a `clip` (absolutely positioned boxes) or a `clip-path` basic shape on it or an ancestor leaves
 *    nothing, or an ancestor that clips its overflow has an empty box (`height: 0; overflow: hidden`);
 *  - `area`: every image that uses its map is hidden (or none does).
 * Images are not downloaded by the renderer, so an image whose size is unknown counts as having a box
 * unless its width or height is set to 0.
 *
 * The function is serialized into the page (page.evaluate): it must not use anything from this module
 * scope, and must never throw into the page.
 */

/** The attribute the pass writes on each link; lib/analyzer/links/extract.ts reads and removes it. */
export const HIDDEN_ATTRIBUTE = "data-linklens-hidden";

/**
 * Marks every link of the document, shadow trees included; returns how many it marked. Runs in the page;
 * `keeperKey` and `keeperSecret` reach the shadow-root keeper (shadow-roots.ts).
 */
export function markHiddenLinks(nonce: string, attribute: string, keeperKey: string, keeperSecret: string): number {
  type Box = { left: number; top: number; right: number; bottom: number };
  const root = document.documentElement;
  if (!root) return 0;
  type Flat = { links: Element[]; parentOf(element: Element): Element | null };
  const access = (window as unknown as Record<string, unknown>)[keeperKey];
  const keeper =
    typeof access === "function"
      ? (access as (secret: string) => { flatLinks(): Flat } | undefined)(keeperSecret)
      : null;
  const flat: Flat = keeper
    ? keeper.flatLinks()
    : { links: Array.from(document.querySelectorAll("a[href], area[href]")), parentOf: (e) => e.parentElement };
  const scroller = document.scrollingElement ?? root;
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const docWidth = Math.max(scroller.scrollWidth, root.clientWidth);
  const docHeight = Math.max(scroller.scrollHeight, root.clientHeight);
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (element: Element): CSSStyleDeclaration => {
    let found = styles.get(element);
    if (!found) {
      found = getComputedStyle(element);
      styles.set(element, found);
    }
    return found;
  };
  const nonEmpty = (box: Box | null): boolean => box !== null && box.right - box.left > 0 && box.bottom - box.top > 0;
  const union = (rects: Iterable<DOMRect>): Box | null => {
    let box: Box | null = null;
    for (const rect of rects) {
      if (rect.width <= 0 && rect.height <= 0) continue;
      box = box
        ? {
            left: Math.min(box.left, rect.left),
            top: Math.min(box.top, rect.top),
            right: Math.max(box.right, rect.right),
            bottom: Math.max(box.bottom, rect.bottom),
          }
        : { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    }
    return box;
  };
  const join = (a: Box | null, b: Box | null): Box | null =>
    !a
      ? b
      : !b
        ? a
        : {
            left: Math.min(a.left, b.left),
            top: Math.min(a.top, b.top),
            right: Math.max(a.right, b.right),
            bottom: Math.max(a.bottom, b.bottom),
          };
  const seen = (element: Element): boolean =>
    element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: false });
  /** An image's size as the markup sets it (its used size says nothing while it is not downloaded). */
  const zeroSized = (element: HTMLElement): boolean =>
    ["width", "height"].some(
      (side) =>
        element.getAttribute(side)?.trim() === "0" ||
        /^0(px|%|em|rem)?$/.test(element.style.getPropertyValue(side).trim()),
    );
  const clipsOverflow = (s: CSSStyleDeclaration): boolean => s.overflowX !== "visible" || s.overflowY !== "visible";

  /** The box an element shows: its own, or (zero width or height, or display: contents) its visible descendants'. */
  const shownBox = (element: Element): Box | null => {
    const own = union(element.getClientRects());
    const s = style(element);
    const contents = s.display === "contents";
    if (!contents && !seen(element)) return null;
    if (nonEmpty(own)) return own;
    if (element instanceof HTMLImageElement && !(element.complete && element.naturalWidth > 0) && !zeroSized(element)) {
      // Not downloaded (the renderer skips images): its real size is unknown, so it is taken as shown.
      const at = element.getBoundingClientRect();
      return { left: at.left, top: at.top, right: at.left + 1, bottom: at.top + 1 };
    }
    // An empty box that clips its overflow shows nothing of what is inside it.
    if (!contents && clipsOverflow(s)) return null;
    let box: Box | null = null;
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (!(child.textContent ?? "").trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        const text = union(range.getClientRects());
        if (nonEmpty(text)) box = join(box, text);
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        const inner = shownBox(child as Element);
        if (nonEmpty(inner)) box = join(box, inner);
      }
    }
    return box;
  };

  const length = (value: string, basis: number): number =>
    value.endsWith("%") ? (parseFloat(value) / 100) * basis : parseFloat(value) || 0;
  /** Whether a clip-path basic shape leaves nothing of a `width`×`height` box (url(), paths: assumed to leave something). */
  const clipPathEmpty = (value: string, width: number, height: number): boolean => {
    const shape = /^(inset|circle|ellipse|polygon)\((.*)\)/.exec(value.trim());
    if (!shape) return false;
    const args =
      (shape[2] ?? "")
        .split(/\s+at\s+/)[0]
        ?.split(/\s+round\s+/)[0]
        ?.trim() ?? "";
    if (shape[1] === "inset") {
      const v = args.split(/\s+/);
      const [t = "0", r = t, b = t, l = r] = v;
      return length(t, height) + length(b, height) >= height || length(l, width) + length(r, width) >= width;
    }
    if (shape[1] === "circle") return args !== "" && /^0(px|%)?$/.test(args.split(/\s+/)[0] ?? "");
    if (shape[1] === "ellipse") return args.split(/\s+/).some((part) => /^0(px|%)?$/.test(part));
    const points = args
      .replace(/^(nonzero|evenodd)\s*,/, "")
      .split(",")
      .map((pair) => pair.trim().split(/\s+/))
      .map(([x = "0", y = "0"]) => [length(x, width), length(y, height)] as const);
    let area = 0;
    points.forEach(([x1, y1], i) => {
      const [x2, y2] = points[(i + 1) % points.length] ?? [0, 0];
      area += x1 * y2 - x2 * y1;
    });
    return Math.abs(area) < 0.5;
  };
  /** Whether the legacy `clip: rect()` of an absolutely positioned box leaves nothing of it. */
  const clipEmpty = (s: CSSStyleDeclaration, width: number, height: number): boolean => {
    if (s.position !== "absolute" && s.position !== "fixed") return false;
    const rect = /^rect\((.*)\)$/.exec(s.clip.trim());
    if (!rect) return false;
    const [top, right, bottom, left] = (rect[1] ?? "")
      .split(/[\s,]+/)
      .map((part, index) => (part === "auto" ? ([0, width, height, 0][index] ?? 0) : parseFloat(part) || 0));
    return (right ?? 0) <= (left ?? 0) || (bottom ?? 0) <= (top ?? 0);
  };

  type Facts = { clipped: boolean; overflowToNothing: boolean; onPageScroller: boolean };
  const facts = new Map<Element, Facts>();
  /** What an element does to itself (clip, clip-path) and to what is inside it (overflow). Cached: links share ancestors. */
  const factsOf = (element: Element): Facts => {
    let found = facts.get(element);
    if (found) return found;
    const s = style(element);
    const html = element as HTMLElement;
    const width = typeof html.offsetWidth === "number" ? html.offsetWidth : element.clientWidth;
    const height = typeof html.offsetHeight === "number" ? html.offsetHeight : element.clientHeight;
    const clipped = clipEmpty(s, width, height) || (s.clipPath !== "none" && clipPathEmpty(s.clipPath, width, height));
    let overflowToNothing = false;
    let onPageScroller = false;
    // The root's and body's overflow belong to the viewport: the whole document counts as scrollable.
    if (clipsOverflow(s) && element !== root && element !== document.body && s.display !== "contents") {
      const box = union(element.getClientRects());
      if (!nonEmpty(box) || element.clientWidth === 0 || element.clientHeight === 0) overflowToNothing = true;
      else if (box)
        onPageScroller =
          box.right + scrollX > 0 &&
          box.bottom + scrollY > 0 &&
          box.left + scrollX < docWidth &&
          box.top + scrollY < docHeight;
    }
    found = { clipped, overflowToNothing, onPageScroller };
    facts.set(element, found);
    return found;
  };

  const hidden = (element: Element): boolean => {
    const box = shownBox(element);
    if (!box || !nonEmpty(box)) return true;
    let inScroller = false;
    for (let node: Element | null = element; node; node = flat.parentOf(node)) {
      const own = factsOf(node);
      if (own.clipped) return true;
      // An element's overflow clips what is inside it, not itself.
      if (node === element) continue;
      if (own.overflowToNothing) return true;
      if (own.onPageScroller) inScroller = true;
    }
    const outside =
      box.right + scrollX <= 0 ||
      box.bottom + scrollY <= 0 ||
      box.left + scrollX >= docWidth ||
      box.top + scrollY >= docHeight;
    return outside && !inScroller;
  };

  const imagesOf = (area: Element): HTMLImageElement[] => {
    const map = area.closest("map");
    const name = map?.getAttribute("name") || map?.id;
    if (!name) return [];
    // A map serves the images of its own tree (the document or its shadow root).
    const scope = area.getRootNode() as Document | ShadowRoot;
    return Array.from(scope.querySelectorAll("img[usemap]")).filter(
      (img) => img.getAttribute("usemap") === `#${name}`,
    ) as HTMLImageElement[];
  };

  let marked = 0;
  for (const link of flat.links) {
    let verdict: boolean;
    try {
      verdict = link.localName === "area" ? imagesOf(link).every(hidden) : hidden(link);
    } catch {
      continue;
    }
    link.setAttribute(attribute, `${nonce}${verdict ? "1" : "0"}`);
    marked += 1;
  }
  return marked;
}
