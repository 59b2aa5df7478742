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
 *     element of the kinds `attachShadow` accepts: jsdom's own check) and has none yet, so the first such
 *     template wins. Any other template stays inert (its content is not captured). Templates inside a new
 *     root are attached in turn (nested roots).
 *  2. Flatten. Each host's children become its shadow root's content, each `<slot>` standing for the host's
 *     children assigned to it (named slots by `slot=`, the first slot of a name wins, the default slot takes
 *     the rest) or, when none is assigned, for its own fallback content. A host's child assigned to no slot
 *     is not rendered, so it is dropped (Chromium renders nothing of it, and Google's flattening keeps only
 *     what renders). A slot assigned to a slot of a nested host (forwarding) carries its own assigned nodes
 *     along. Assignment is read from jsdom (DOM spec "find a slot") before anything moves.
 *
 * The document is then an ordinary tree in flattened order: extraction gives links their positions in it
 * and the snapshot shows shadow content in place. A shadow tree's `<style>` is dropped: it styled only its
 * own tree and would restyle the whole snapshot.
 */

/** Whether markup may hold declarative shadow roots: the cheap test before any tree is searched. */
export function mayHaveShadowRoots(html: string): boolean {
  return /shadowrootmode/i.test(html);
}

interface Attached {
  host: Element;
  root: ShadowRoot;
}

const MODES = new Set(["open", "closed"]);

/** Flattens every declarative shadow root of `document` into its host (see above); answers how many there were. */
export function flattenShadowTrees(document: Document): number {
  const attached = attachDeclarativeRoots(document);
  if (attached.length === 0) return 0;

  // Read every assignment first: moving a node changes jsdom's live assignment.
  const slots: { slot: HTMLSlotElement; assigned: Node[] }[] = [];
  const styles: Element[] = [];
  for (const { root } of attached) {
    for (const slot of Array.from(root.querySelectorAll("slot"))) slots.push({ slot, assigned: slot.assignedNodes() });
    styles.push(...Array.from(root.querySelectorAll("style")));
  }
  // A slot holds what it shows: its assigned nodes, else its fallback content (kept as it is).
  for (const { slot, assigned } of slots) if (assigned.length > 0) slot.replaceChildren(...assigned);
  // A host shows its shadow tree; its children left over were assigned to no slot.
  for (const { host, root } of attached) host.replaceChildren(...Array.from(root.childNodes));
  // Slots render as their content (display: contents), so they are unwrapped, inner ones first.
  for (const { slot } of slots.reverse()) slot.replaceWith(...Array.from(slot.childNodes));
  for (const style of styles) style.remove();
  return attached.length;
}

/** Step 1: every declarative template that the parser would attach, outer roots before the roots inside them. */
function attachDeclarativeRoots(document: Document): Attached[] {
  const attached: Attached[] = [];
  const scopes: ParentNode[] = [document];
  for (let scope = scopes.shift(); scope !== undefined; scope = scopes.shift()) {
    for (const template of Array.from(scope.querySelectorAll("template[shadowrootmode]"))) {
      const host = template.parentElement;
      const mode = template.getAttribute("shadowrootmode")?.toLowerCase() ?? "";
      if (host === null || !MODES.has(mode)) continue;
      let root: ShadowRoot;
      try {
        root = host.attachShadow({ mode: mode as ShadowRootMode });
      } catch {
        // Not a host the parser would give a root (an <a>, <html>, an SVG element) or already one: inert.
        continue;
      }
      root.append((template as HTMLTemplateElement).content);
      template.remove();
      attached.push({ host, root });
      scopes.push(root);
    }
  }
  return attached;
}
