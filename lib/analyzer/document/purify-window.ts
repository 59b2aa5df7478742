import type { JSDOM } from "jsdom";

type Window = JSDOM["window"];

/**
 * The window DOMPurify is created with: jsdom's own, except that its `Element.prototype` reads
 * `childNodes` as an array of the children instead of jsdom's live NodeList.
 *
 * Why: DOMPurify takes its `childNodes` getter from `window.Element.prototype` once (its defence
 * against clobbered DOM properties) and, in IN_PLACE mode, walks the whole tree five times with it
 * besides its main walk (patch-linkage sweep, node inventory before and after, shadow roots, escaped
 * nodes). jsdom answers each call with a NodeList behind a Proxy, created once per node and indexed
 * through the Proxy's traps: on a 1.9 MiB page with 51,653 links that was 1.0 s of DOMPurify's 2.0 s
 * (profiled: docs/performance.md "Issue 12"). DOMPurify reads the list right away (length, then
 * indices), so a snapshot of the children at that moment is what the live list would show.
 *
 * What stays the same:
 *  - the children are read through `firstChild`/`nextSibling` getters taken from jsdom's
 *    `Node.prototype` here, so a page cannot clobber them any more than DOMPurify's own getter;
 *  - every other getter and method DOMPurify looks up is jsdom's (the view's prototype inherits from
 *    jsdom's `Element.prototype`), and every other window member is jsdom's;
 *  - a `<form>` keeps jsdom's list: DOMPurify's clobbering check compares `form.childNodes` with its
 *    getter's answer by identity, and a fresh array would make every form look clobbered.
 * sanitize.test.ts checks that DOMPurify created with this view returns, byte for byte, what a
 * DOMPurify created with the plain window returns, on hostile documents and real pages.
 */
export function purifyWindow(window: Window): Window {
  const nodePrototype = window.Node.prototype;
  const firstChild = getter(nodePrototype, "firstChild");
  const nextSibling = getter(nodePrototype, "nextSibling");
  const nodeName = getter(nodePrototype, "nodeName");
  const liveChildNodes = getter(nodePrototype, "childNodes");

  const elementPrototype: object = Object.create(window.Element.prototype, {
    childNodes: {
      get(this: Node): ArrayLike<Node> {
        if (nodeName.call(this) === "FORM") return liveChildNodes.call(this) as NodeListOf<Node>;
        const children: Node[] = [];
        for (
          let child = firstChild.call(this) as Node | null;
          child !== null;
          child = nextSibling.call(child) as Node | null
        ) {
          children.push(child);
        }
        return children;
      },
    },
  });
  // Only the prototype matters to DOMPurify; the constructor is never called.
  const element = function Element() {} as unknown as Window["Element"];
  Object.defineProperty(element, "prototype", { value: elementPrototype });

  return new Proxy(window, {
    get: (target, property) => (property === "Element" ? element : Reflect.get(target, property)),
  });
}

function getter(prototype: object, property: string): (this: unknown) => unknown {
  const get = Object.getOwnPropertyDescriptor(prototype, property)?.get;
  if (get === undefined) throw new TypeError(`jsdom's Node.prototype has no ${property} getter`);
  return get;
}
