import { AnchorAccumulator } from "./anchor";
import {
  isRobotsMetaName,
  robotsContentSaysNofollow,
  robotsContentSaysNoindex,
  splitTokens,
} from "../robots/directives";
import type { Fate } from "../document/prune";
import { sanitizerFate } from "../document/sanitize";
import type { Region } from "../types";
import { HIDDEN_ATTRIBUTE } from "../render/visibility";

/** The attribute that ties a captured link in sanitizedHtml to its `position`. */
export const POSITION_ATTRIBUTE = "data-linklens-position";

/** Landmark elements and roles → the region a link inside them is in (placement-verdict.md). */
const REGION_OF_TAG: Readonly<Record<string, Region>> = {
  main: "main",
  article: "main",
  header: "header",
  nav: "nav",
  aside: "aside",
  footer: "footer",
};
const REGION_OF_ROLE: Readonly<Record<string, Region>> = {
  main: "main",
  banner: "header",
  navigation: "nav",
  complementary: "aside",
  contentinfo: "footer",
};

/**
 * The landmark an HTML element opens, or null. A role attribute decides when it has one (`<div
 * role="navigation">` is a nav, `<nav role="main">` a main, `<nav role="presentation">` none); else the tag.
 */
function landmarkOf(element: Element, name: string): Region | null {
  const role = element.getAttribute("role")?.trim().toLowerCase().split(/\s+/)[0];
  if (role) return REGION_OF_ROLE[role] ?? null;
  return REGION_OF_TAG[name] ?? null;
}

const HTML_NS = "http://www.w3.org/1999/xhtml";
const SVG_NS = "http://www.w3.org/2000/svg";
const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

/** One captured link as found in the document, before its href is resolved. */
export interface RawLink {
  /** 1-based document order. */
  position: number;
  /** The raw `href` attribute value. */
  href: string;
  rel: string | null;
  ariaLabel: string | null;
  title: string | null;
  anchor: AnchorAccumulator;
  /** The nearest ancestor landmark (the link itself excluded), or null. */
  region: Region | null;
  /**
   * What the visibility pass said (lib/analyzer/render/visibility.ts), or null when the link carries no mark
   * of this render.
   */
  hidden: boolean | null;
}

/** Everything one walk over the document finds. */
export interface Extraction {
  links: RawLink[];
  /** href of the first `<base>` that has one, or null. */
  baseHref: string | null;
  /** A `<meta name="robots|googlebot">` says nofollow or none. */
  metaNofollow: boolean;
  /** A `<meta name="robots|googlebot">` says noindex or none. */
  metaNoindex: boolean;
  /** href of the first `<link rel="canonical">` of `<head>` that has one, or null (unresolved). */
  canonicalHref: string | null;
  /**
   * Nodes the snapshot will not keep as they are: "drop" (script, iframe, svg, comments, URL-mode
   * noscript: gone with their content) or "unwrap" (unknown tags, form, object, paste-mode noscript:
   * replaced by their content). See lib/analyzer/document/prune.ts for why this happens before DOMPurify.
   */
  fates: Map<Node, Fate>;
}

interface OpenLink {
  element: Element;
  anchor: AnchorAccumulator;
}

/**
 * Walks the parsed document once, in document order, and
 *  - captures every HTML `a[href]` and `area[href]` (template content is not part of the tree walked),
 *  - marks each with `data-linklens-position="N"` after removing any such attribute the page brought,
 *  - gathers anchor text, image alts and isImage for each link,
 *  - finds the first `<base href>` and meta robots nofollow,
 *  - notes each link's nearest landmark (region) and, given the render's nonce, reads and removes the
 *    visibility pass's mark (lib/analyzer/render/visibility.ts).
 *
 * `scripting` is URL mode: the page was rendered with scripting on, where `<noscript>` content is
 * plain text. Our parser always runs with scripting off, so noscript subtrees are skipped instead.
 *
 * Iterative on purpose: documents nest 50,000 levels deep, which recursion would not survive.
 * SVG/MathML `a` elements are not captured: like `document.links` we take HTML hyperlinks, and the
 * sanitizer drops SVG/MathML, so their positions could never be shown.
 */
export function extractLinks(document: Document, scripting: boolean, hiddenMarker?: string): Extraction {
  const links: RawLink[] = [];
  const fates = new Map<Node, Fate>();
  const open: OpenLink[] = [];
  const landmarks: { element: Element; region: Region }[] = [];
  let baseHref: string | null = null;
  let metaNofollow = false;
  let metaNoindex = false;
  let canonicalHref: string | null = null;

  const root = document.documentElement;
  let node: Node | null = root;
  while (node !== null) {
    let descend = true;
    if (node.nodeType === 1) {
      const element = node as Element;
      if (element.hasAttribute(POSITION_ATTRIBUTE)) element.removeAttribute(POSITION_ATTRIBUTE);
      // Read below for links, then gone from every element: the snapshot never shows the mark.
      const mark = hiddenMarker === undefined ? null : element.getAttribute(HIDDEN_ATTRIBUTE);
      if (mark !== null) element.removeAttribute(HIDDEN_ATTRIBUTE);
      const name = element.localName;
      const namespace = element.namespaceURI;
      if (namespace === HTML_NS) {
        const fate = sanitizerFate(name);
        if (fate !== "keep") fates.set(element, fate);
        switch (name) {
          case "a":
          case "area": {
            const href = element.getAttribute("href");
            if (href === null) break;
            const anchor = new AnchorAccumulator();
            const position = links.length + 1;
            element.setAttribute(POSITION_ATTRIBUTE, String(position));
            links.push({
              position,
              href,
              rel: element.getAttribute("rel"),
              ariaLabel: element.getAttribute("aria-label"),
              title: element.getAttribute("title"),
              anchor,
              region: landmarks.at(-1)?.region ?? null,
              // A mark without this render's nonce was written by the page, not by us: not evidence.
              hidden:
                mark !== null &&
                hiddenMarker !== undefined &&
                mark.length === hiddenMarker.length + 1 &&
                mark.startsWith(hiddenMarker)
                  ? mark.endsWith("1")
                  : null,
            });
            // An image map region's own alt is its text alternative, like an image's alt.
            if (name === "area") anchor.addAlt(element.getAttribute("alt"));
            open.push({ element, anchor });
            break;
          }
          case "img": {
            const top = open.at(-1);
            if (top !== undefined) {
              top.anchor.isImage = true;
              top.anchor.addAlt(element.getAttribute("alt"));
            }
            break;
          }
          case "picture": {
            const top = open.at(-1);
            if (top !== undefined) top.anchor.isImage = true;
            break;
          }
          case "script":
          case "style":
            // Not visible text (innerText leaves them out); HTML script/style hold only text anyway.
            descend = false;
            break;
          case "noscript":
            // Paste mode counted its content as markup, so the snapshot shows it as markup too
            // (DOMPurify would drop <noscript> with the captured links inside). Unwrapping also ends
            // the noscript mXSS family: a scripting-on viewer re-reads noscript content as text.
            if (scripting) descend = false;
            else fates.set(element, "unwrap");
            break;
          case "base":
            if (baseHref === null) baseHref = element.getAttribute("href");
            break;
          case "meta": {
            const metaName = element.getAttribute("name");
            const content = element.getAttribute("content");
            if (metaName !== null && content !== null && isRobotsMetaName(metaName)) {
              metaNofollow ||= robotsContentSaysNofollow(content);
              metaNoindex ||= robotsContentSaysNoindex(content);
            }
            break;
          }
          case "link": {
            // The first canonical of <head> (an implied head counts): like Google, one in <body> is ignored.
            if (canonicalHref !== null || element.parentElement?.localName !== "head") break;
            const rel = element.getAttribute("rel");
            if (rel !== null && splitTokens(rel).includes("canonical")) canonicalHref = element.getAttribute("href");
            break;
          }
        }
        const region = descend && element.firstChild !== null ? landmarkOf(element, name) : null;
        if (region !== null) landmarks.push({ element, region });
      } else if (name === "svg" && namespace === SVG_NS) {
        // Walked for anchor text (icon links often carry <svg><title>), then dropped with the SVG.
        fates.set(element, "drop");
        const top = open.at(-1);
        if (top !== undefined) top.anchor.isImage = true;
      } else if (name === "math" && namespace === MATHML_NS) {
        fates.set(element, "drop");
      } else if (name === "script" || name === "style") {
        // SVG script/style text is not visible either; what is inside is dropped with the SVG.
        descend = false;
      }
    } else if (node.nodeType === 3) {
      const top = open.at(-1);
      if (top !== undefined) top.anchor.text.append((node as Text).data);
      descend = false;
    } else {
      // Comments are invisible in the snapshot; removing them now spares DOMPurify the removals.
      if (node.nodeType === 8) fates.set(node, "drop");
      descend = false;
    }

    if (descend && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    // Leave this node and every ancestor whose last child we just finished.
    while (node !== null) {
      const top = open.at(-1);
      if (top !== undefined && top.element === node) {
        open.pop();
        open.at(-1)?.anchor.absorb(top.anchor);
      }
      if (landmarks.at(-1)?.element === node) landmarks.pop();
      if (node === root) {
        node = null;
        break;
      }
      if (node.nextSibling !== null) {
        node = node.nextSibling;
        break;
      }
      node = node.parentNode;
    }
  }

  return { links, baseHref, metaNofollow, metaNoindex, canonicalHref, fates };
}
