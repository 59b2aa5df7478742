/**
 * Declarative shadow roots, and the flattened tree Google reads links from (google-view.md §1).
 *
 * Markup carries shadow roots as `<template shadowrootmode="open|closed">`: pages write them (server-side
 * rendered web components), and URL mode's serialization of the rendered page writes every shadow root of
 * the page that way, closed and script-attached ones included (render/capture.ts). jsdom's parser keeps such
 * a template as a plain, inert `<template>` (checked: jsdom 28.1 has no declarative shadow DOM), so this
 * module does what a browser's parser does with it, then flattens:
 *
 *  1. Attach. A template whose `shadowrootmode` is `open` or `closed` (ASCII case-insensitive) becomes the
 *     shadow root of its parent, holding the template's content, when the parent can host one (an HTML
 *     element of a valid shadow host name, DOM "attachShadow") and has none yet, so the first such template
 *     wins. Any other template stays inert (its content is not captured). Templates inside a new root are
 *     attached in turn (nested roots).
 *  2. Flatten. Each host's children become its shadow root's content, each `<slot>` standing for the host's
 *     children assigned to it (DOM "find a slot": named slots by `slot=`, the first slot of a name wins, the
 *     default slot takes the rest) or, when none is assigned, for its own fallback content. A host's child
 *     assigned to no slot is not rendered, so it is dropped (Chromium renders nothing of it, and Google's
 *     flattening keeps only what renders). A slot assigned to a slot of a nested host (forwarding) carries
 *     its own assigned nodes along. Slots render as their content (display: contents), so none is kept, and
 *     neither is one outside any shadow tree, which has nothing assigned and shows its children.
 *
 * The document is then an ordinary tree in flattened order: extraction gives links their positions in it
 * and the snapshot shows shadow content in place. A shadow tree's `<style>` is dropped: it styled only its
 * own tree and would restyle the whole snapshot.
 *
 * Cost is linear in the document. jsdom is avoided where it is not: it reassigns slots on every insertion
 * into a shadow root (so no root is attached through it), and removing anything that holds a `<slot>`
 * walks the whole tree it leaves (so no slot is ever removed from the document: the flattened tree is built
 * beside it, moving whole subtrees that hold no slot or host and copying only the elements above those).
 */

/** Whether markup may hold declarative shadow roots or slots: the cheap test before any tree is searched. */
export function mayHaveShadowRoots(html: string): boolean {
  return /shadowrootmode|<slot/i.test(html);
}

interface Attached {
  host: Element;
  /** The template's content: what the shadow root would hold. */
  content: DocumentFragment;
}

const MODES = new Set(["open", "closed"]);

/** Elements `attachShadow` accepts besides custom elements (DOM "valid shadow host name"). */
const SHADOW_HOSTS = new Set([
  "article",
  "aside",
  "blockquote",
  "body",
  "div",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "main",
  "nav",
  "p",
  "section",
  "span",
]);
const RESERVED_CUSTOM_NAMES = new Set([
  "annotation-xml",
  "color-profile",
  "font-face",
  "font-face-src",
  "font-face-uri",
  "font-face-format",
  "font-face-name",
  "missing-glyph",
]);
const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/** Flattens every declarative shadow root of `document` into its host (see above); answers how many there were. */
export function flattenShadowTrees(document: Document): number {
  const attached = attachDeclarativeRoots(document);
  const slots = Array.from(document.querySelectorAll("slot"));
  if (attached.length === 0 && slots.length === 0) return 0;

  // Assignments are read first, from the tree as parsed; building moves nodes.
  const contentOf = new Map<Element, DocumentFragment>();
  const assignedTo = new Map<Element, Node[]>();
  const dropped = new Set<Node>();
  for (const { host, content } of attached) {
    contentOf.set(host, content);
    const rootSlots = Array.from(content.querySelectorAll("slot"));
    slots.push(...rootSlots);
    for (const [slot, assigned] of assignSlots(host, rootSlots)) assignedTo.set(slot, assigned);
    for (const style of Array.from(content.querySelectorAll("style"))) dropped.add(style);
  }
  const rebuilt = ancestorsOf([...slots, ...contentOf.keys()]);
  const documentElement = document.documentElement;
  if (documentElement === null || !rebuilt.has(documentElement)) return attached.length;
  const flattened = buildFlattened(documentElement, { contentOf, assignedTo, dropped, rebuilt });
  document.replaceChild(flattened, documentElement);
  return attached.length;
}

interface Plan {
  /** A host's shadow root content. */
  contentOf: Map<Element, DocumentFragment>;
  /** A slot's assigned nodes (empty: it shows its fallback content). */
  assignedTo: Map<Element, Node[]>;
  /** Nodes the flattened tree leaves out (a shadow tree's styles). */
  dropped: Set<Node>;
  /** Elements that hold a slot or a host, so are copied rather than moved. */
  rebuilt: Set<Node>;
}

/**
 * Step 2: the flattened copy of `top`. Iterative (a page's depth is the attacker's to choose): each frame is
 * the list of nodes that go, in order, into one parent of the new tree.
 */
function buildFlattened(top: Element, plan: Plan): Element {
  const copy = top.cloneNode(false) as Element;
  const stack: { nodes: Node[]; next: number; into: ParentNode }[] = [
    { nodes: childrenOf(top, plan), next: 0, into: copy },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const node = frame.nodes[frame.next++];
    if (node === undefined) {
      stack.pop();
      continue;
    }
    if (plan.dropped.has(node)) continue;
    if (isSlot(node)) {
      stack.push({ nodes: childrenOf(node, plan), next: 0, into: frame.into });
    } else if (plan.rebuilt.has(node)) {
      const element = node.cloneNode(false) as Element;
      frame.into.append(element);
      stack.push({ nodes: childrenOf(node as Element, plan), next: 0, into: element });
    } else {
      frame.into.append(node);
    }
  }
  return copy;
}

/** What `node` shows in the flattened tree: a host its shadow content, a slot what is assigned to it. */
function childrenOf(node: Node, plan: Plan): Node[] {
  const content = plan.contentOf.get(node as Element);
  if (content !== undefined) return childList(content);
  const assigned = plan.assignedTo.get(node as Element);
  if (assigned !== undefined && assigned.length > 0) return assigned;
  return childList(node);
}

/**
 * A node's children, read by walking siblings: once `childNodes` has been read, jsdom recomputes that live
 * list on every later change of the node, and moving n children out one by one would cost n² steps.
 */
function childList(node: Node): Node[] {
  const children: Node[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) children.push(child);
  return children;
}

function isSlot(node: Node): node is Element {
  return node.nodeType === node.ELEMENT_NODE && (node as Element).localName === "slot";
}

/** Every element above `nodes` (and they), up to the document or the root's content they are in. */
function ancestorsOf(nodes: Element[]): Set<Node> {
  const marked = new Set<Node>();
  for (const node of nodes) {
    for (let at: Element | null = node; at !== null && !marked.has(at); at = at.parentElement) marked.add(at);
  }
  return marked;
}

/**
 * Step 1: every declarative template that the parser would attach, outer roots before the roots inside them.
 * Roots are not attached through jsdom: its slot assignment reruns on every insertion into a shadow tree,
 * which costs the fourth power of the slots in a pasted page; the template's content is the root's content.
 */
function attachDeclarativeRoots(document: Document): Attached[] {
  const attached: Attached[] = [];
  const hosts = new Set<Element>();
  const scopes: ParentNode[] = [document];
  for (let scope = scopes.shift(); scope !== undefined; scope = scopes.shift()) {
    for (const template of Array.from(scope.querySelectorAll("template[shadowrootmode]"))) {
      const host = template.parentElement;
      const mode = template.getAttribute("shadowrootmode")?.toLowerCase() ?? "";
      // Not a host the parser would give a root (an <a>, <html>, an SVG element) or already one: inert.
      if (host === null || !MODES.has(mode) || hosts.has(host) || !canHostShadowRoot(host)) continue;
      const content = (template as HTMLTemplateElement).content;
      template.remove();
      hosts.add(host);
      attached.push({ host, content });
      scopes.push(content);
    }
  }
  return attached;
}

/** DOM "attachShadow" step 2: an HTML element of a valid shadow host name. */
function canHostShadowRoot(element: Element): boolean {
  if (element.namespaceURI !== HTML_NAMESPACE) return false;
  const name = element.localName;
  return SHADOW_HOSTS.has(name) || isValidCustomElementName(name);
}

/** HTML "valid custom element name", for names the HTML parser produced (already lower case). */
function isValidCustomElementName(name: string): boolean {
  return /^[a-z][^\sA-Z/>]*-[^\sA-Z/>]*$/.test(name) && !RESERVED_CUSTOM_NAMES.has(name);
}

/**
 * Step 2's assignment (DOM "find a slot" for every slottable): each child of the host (an element or a text
 * node) goes to the first slot of the root, in tree order, whose name is its `slot` attribute ("" for text
 * and for elements without one). Slots of roots nested inside are in their own templates, so not searched.
 */
function assignSlots(host: Element, slots: Element[]): Map<Element, Node[]> {
  const firstByName = new Map<string, Node[]>();
  const assignedTo = new Map<Element, Node[]>();
  for (const slot of slots) {
    const name = slot.getAttribute("name") ?? "";
    if (firstByName.has(name)) continue;
    const assigned: Node[] = [];
    firstByName.set(name, assigned);
    assignedTo.set(slot, assigned);
  }
  for (const child of childList(host)) {
    const isElement = child.nodeType === child.ELEMENT_NODE;
    if (!isElement && child.nodeType !== child.TEXT_NODE) continue;
    const name = isElement ? ((child as Element).getAttribute("slot") ?? "") : "";
    firstByName.get(name)?.push(child);
  }
  return assignedTo;
}
