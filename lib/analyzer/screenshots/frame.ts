/**
 * Page functions of the evidence camera (camera.ts), run in the rendered page kept open after a
 * signed-in render. They are sent as source (lib/analyzer/render/page-script.ts): nothing from this
 * module's scope may be used inside them, and they must never throw into the page.
 */

/** A box in the viewport's CSS pixels (the analyzer's viewport has a device scale factor of 1). */
export interface FrameBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the camera asks the page to frame: a link of the analysis, told apart as the extractor saw it. */
export interface FrameRequest {
  /** The visibility pass's nonce: only links it marked were in the analysed DOM. */
  marker: string;
  attribute: string;
  /** The link's resolved href, and how many links with the same href come before it in the analysis. */
  href: string;
  ordinal: number;
  /** Its 0-based index among all analysed links (used when no element has that href any more). */
  index: number;
  /** Tag name of the outline element drawn over the page. */
  outlineTag: string;
  /** Where the shadow-root keeper is and its secret (lib/analyzer/render/shadow-roots.ts). */
  keeperKey: string;
  keeperSecret: string;
}

/**
 * Finds the analysed link in the live page, scrolls it into the middle of the viewport (scrollers and
 * carousels included), and draws a fixed outline around it on top of everything. The page's links are
 * counted in flattened-tree order, shadow trees included, as the analysis counted them. Answers its box in
 * the viewport, clipped to it, or null when it is not there, has no box, or stays out of view.
 */
export function frameLink(request: FrameRequest): FrameBox | null {
  try {
    const access = (window as unknown as Record<string, unknown>)[request.keeperKey];
    const keeper =
      typeof access === "function"
        ? (access as (secret: string) => { flatLinks(): { links: Element[] } } | undefined)(request.keeperSecret)
        : null;
    const all = keeper ? keeper.flatLinks().links : Array.from(document.querySelectorAll("a[href], area[href]"));
    const marked = all.filter((element) => (element.getAttribute(request.attribute) ?? "").startsWith(request.marker));
    const hrefOf = (element: Element): string => {
      const value = (element as HTMLAnchorElement).href;
      return typeof value === "string" ? value : "";
    };
    const sameHref = marked.filter((element) => hrefOf(element) === request.href);
    const element = sameHref[request.ordinal] ?? sameHref[0] ?? marked[request.index] ?? null;
    if (!element) return null;

    // An image map's region has no box of its own: the image that uses the map stands for it.
    let boxed: Element = element;
    if (element.localName === "area") {
      const map = element.closest("map");
      const name = map?.getAttribute("name") || map?.id;
      const scope = element.getRootNode() as Document | ShadowRoot;
      const image = name
        ? Array.from(scope.querySelectorAll("img[usemap]")).find((img) => img.getAttribute("usemap") === `#${name}`)
        : undefined;
      if (!image) return null;
      boxed = image;
    }
    boxed.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });

    // The union of its boxes; an inline link around block content has its boxes in its descendants.
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    const add = (rect: DOMRect) => {
      if (rect.width <= 0 && rect.height <= 0) return;
      left = Math.min(left, rect.left);
      top = Math.min(top, rect.top);
      right = Math.max(right, rect.right);
      bottom = Math.max(bottom, rect.bottom);
    };
    for (const rect of Array.from(boxed.getClientRects())) add(rect);
    if (!(right > left && bottom > top)) {
      for (const inner of Array.from(boxed.querySelectorAll("*")))
        for (const rect of Array.from(inner.getClientRects())) add(rect);
    }
    const width = window.innerWidth;
    const height = window.innerHeight;
    const x1 = Math.max(0, Math.floor(left));
    const y1 = Math.max(0, Math.floor(top));
    const x2 = Math.min(width, Math.ceil(right));
    const y2 = Math.min(height, Math.ceil(bottom));
    if (!(x2 > x1 && y2 > y1)) return null;

    // Inline !important beats the page's own !important rules; an unknown tag matches none of its selectors.
    const outline = document.createElement(request.outlineTag);
    const pad = 3;
    const style = [
      "all: initial",
      "display: block",
      "position: fixed",
      `left: ${x1 - pad}px`,
      `top: ${y1 - pad}px`,
      `width: ${x2 - x1 + 2 * pad}px`,
      `height: ${y2 - y1 + 2 * pad}px`,
      "box-sizing: border-box",
      "border: 3px solid #dc2626",
      "border-radius: 3px",
      "box-shadow: 0 0 0 2px #ffffff, 0 0 0 100000px rgba(15, 23, 42, 0.1)",
      "pointer-events: none",
      "z-index: 2147483647",
      "margin: 0",
      "transform: none",
    ];
    outline.setAttribute("style", style.map((rule) => `${rule} !important`).join("; "));
    document.documentElement.appendChild(outline);
    return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  } catch {
    return null;
  }
}

/** Removes every outline drawn by frameLink. */
export function clearFrames(outlineTag: string): void {
  try {
    for (const element of Array.from(document.querySelectorAll(outlineTag))) element.remove();
  } catch {
    // The page replaced its document: nothing of ours is left in it.
  }
}

/** Scrolls to the top of the page (a missing or hidden link's evidence shows the page as a visitor lands). */
export function scrollToTop(): void {
  try {
    window.scrollTo({ left: 0, top: 0, behavior: "instant" as ScrollBehavior });
  } catch {
    // Nothing to scroll.
  }
}
