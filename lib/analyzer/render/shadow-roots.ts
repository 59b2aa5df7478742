import type { CDPSession, Protocol } from "puppeteer-core";

/**
 * The page's shadow roots as the render's own page functions need them (google-view.md §1): links inside
 * shadow roots are links of the page, in flattened-tree order. The serialization needs no help from here
 * (Chromium writes every shadow root, closed ones too, as a declarative template: capture.ts), but the
 * visibility pass (visibility.ts) and the evidence camera (screenshots/frame.ts) work in the live page,
 * where a closed root cannot be reached from its host.
 *
 * So, before any page script runs (evaluateOnNewDocument, every frame, like the activity tracker), the
 * keeper wraps `Element.prototype.attachShadow` and remembers every root a script attaches. The page
 * cannot reach what it remembers: it is handed out only by a function on `window` that answers nothing
 * without this page's secret (a random value given to the keeper when the page is made, never written
 * into the page). Roots the parser attached from `<template shadowrootmode="closed">` never pass through
 * `attachShadow` and no script can reach them; when the page's markup has one, adoptParsedClosedRoots
 * finds them through DevTools and hands them to the keeper (signed-in renders, for the visibility pass).
 *
 * These functions are sent to the page as source (page-script.ts): nothing from this module's scope may
 * be used inside them, and they never throw into the page.
 */

/** Where the keeper's accessor lives on `window` (non-enumerable; useless without the secret). */
export const SHADOW_KEEPER_KEY = "__linklensShadow_2d81f4";

/** What the page functions of the render need to find the keeper. */
export interface ShadowKeeperAccess {
  key: string;
  secret: string;
}

/** The page's links in flattened-tree order, and each node's parent in the flattened tree. */
export interface FlatLinks {
  links: Element[];
  /** The flattened tree's parent: a shadow root's child → its host, a slotted node → its slot; else parentElement. */
  parentOf(element: Element): Element | null;
}

/** What the keeper hands out with the right secret. */
export interface ShadowKeeper {
  /** Remembers a closed root found another way (adoptParsedClosedRoots). */
  adopt(root: ShadowRoot): void;
  /** The shadow root of `element`: its open one, or a closed one a script attached. */
  rootOf(element: Element): ShadowRoot | null;
  /** Every root a script attached (open and closed), in the order they were attached. */
  roots(): ShadowRoot[];
  flatLinks(): FlatLinks;
}

/** The keeper (see above), installed before the page's own scripts. */
export function shadowRootKeeper(key: string, secret: string): void {
  try {
    const attached = new Set<ShadowRoot>();
    const closed = new WeakMap<Element, ShadowRoot>();
    const nativeAttach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = new Proxy(nativeAttach, {
      apply(target, thisArg: Element, args: unknown[]) {
        const root = Reflect.apply(target, thisArg, args) as ShadowRoot;
        try {
          attached.add(root);
          if (root.mode === "closed") closed.set(thisArg, root);
        } catch {
          // Never in the page's way.
        }
        return root;
      },
    });

    const HTML_NS = "http://www.w3.org/1999/xhtml";
    const rootOf = (element: Element): ShadowRoot | null => element.shadowRoot ?? closed.get(element) ?? null;
    const elementsOf = (nodes: ArrayLike<Node>): Element[] => {
      const elements: Element[] = [];
      for (let index = 0; index < nodes.length; index += 1) {
        const node = nodes[index] as Node;
        if (node.nodeType === 1) elements.push(node as Element);
      }
      return elements;
    };
    const inShadowTree = (element: Element): boolean => element.getRootNode() instanceof ShadowRoot;

    const flatLinks = () => {
      const links: Element[] = [];
      const parents = new Map<Element, Element>();
      const start = document.documentElement;
      // Depth first in flattened-tree order, without recursion (documents nest deeply).
      const stack: Element[] = start ? [start] : [];
      while (stack.length > 0) {
        const element = stack.pop() as Element;
        const name = element.localName;
        if ((name === "a" || name === "area") && element.namespaceURI === HTML_NS && element.hasAttribute("href"))
          links.push(element);
        let children: ArrayLike<Element> = element.children;
        const root = rootOf(element);
        if (root) {
          // A host shows its shadow tree; its own children appear only where a slot takes them.
          children = elementsOf(root.childNodes);
          for (const child of children as Element[]) parents.set(child, element);
        } else if (name === "slot" && inShadowTree(element)) {
          const assigned = (element as HTMLSlotElement).assignedNodes();
          if (assigned.length > 0) {
            children = elementsOf(assigned);
            for (const child of children as Element[]) parents.set(child, element);
          }
        }
        for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Element);
      }
      return { links, parentOf: (element: Element) => parents.get(element) ?? element.parentElement };
    };

    const adopt = (root: ShadowRoot) => {
      attached.add(root);
      closed.set(root.host, root);
    };
    const keeper = { adopt, rootOf, roots: () => Array.from(attached), flatLinks };
    Object.defineProperty(window, key, {
      value: (given: unknown) => (given === secret ? keeper : undefined),
      enumerable: false,
      configurable: false,
      writable: false,
    });
  } catch {
    // A frame without a window or DOM: nothing to keep there.
  }
}

/**
 * Takes `shadowrootmode` off every live `<template>` the render can reach (the document and the roots
 * scripts attached). In a live page such a template is inert (only the parser turns markup into a shadow
 * root), but serialized it would read as one, and a page could have its hidden links counted that way.
 * Answers how many it changed.
 */
export function disarmInertTemplates(key: string, secret: string): number {
  try {
    const access = (window as unknown as Record<string, unknown>)[key];
    const keeper = typeof access === "function" ? (access as (s: string) => ShadowKeeper | undefined)(secret) : null;
    const scopes: ParentNode[] = [document, ...(keeper ? keeper.roots() : [])];
    let changed = 0;
    for (const scope of scopes) {
      for (const template of Array.from(scope.querySelectorAll("template[shadowrootmode]"))) {
        template.removeAttribute("shadowrootmode");
        changed += 1;
      }
    }
    return changed;
  } catch {
    return 0;
  }
}

/** Whether markup has a closed declarative shadow root (the raw body, read as bytes: the attribute is ASCII). */
export function hasClosedDeclarativeRoot(markup: Buffer): boolean {
  return /shadowrootmode\s*=\s*["']?\s*closed/i.test(markup.toString("latin1"));
}

/** Runs in the page with `this` a closed shadow root: hands it to the keeper. */
const ADOPT = `function (key, secret) {
  try { var keeper = window[key] && window[key](secret); if (keeper) keeper.adopt(this); } catch (e) {}
}`;

/**
 * Finds the closed shadow roots of the page's document through DevTools (a walk of the whole DOM that pierces
 * shadow roots: about 20 ms on a typical page, 150 ms on a 2 MB one, so only for pages whose markup has a closed
 * declarative root) and hands each to the keeper. Answers how many it handed over; never throws.
 */
export async function adoptParsedClosedRoots(cdp: CDPSession, access: ShadowKeeperAccess): Promise<number> {
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
    const found: number[] = [];
    // The document's own tree only: subframes (contentDocument) and template content are other documents.
    const stack: Protocol.DOM.Node[] = [root];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      for (const shadow of node.shadowRoots ?? []) {
        if (shadow.shadowRootType === "closed") found.push(shadow.backendNodeId);
        stack.push(shadow);
      }
      stack.push(...(node.children ?? []));
    }
    for (const backendNodeId of found) {
      const { object } = await cdp.send("DOM.resolveNode", { backendNodeId });
      if (!object.objectId) continue;
      await cdp.send("Runtime.callFunctionOn", {
        objectId: object.objectId,
        functionDeclaration: ADOPT,
        arguments: [{ value: access.key }, { value: access.secret }],
      });
      void cdp.send("Runtime.releaseObject", { objectId: object.objectId }).catch(() => undefined);
    }
    return found.length;
  } catch {
    return 0;
  } finally {
    void cdp.send("DOM.disable").catch(() => undefined);
  }
}
