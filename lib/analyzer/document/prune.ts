/** What happens to a node before sanitizing: removed with its content, or replaced by its content. */
export type Fate = "drop" | "unwrap";

/**
 * Sibling steps jsdom may spend on index lookups for one parent before we rebuild it instead (see
 * pruneTree). A few million pointer steps take milliseconds; real pages need a few hundred.
 */
const DIRECT_EDIT_LIMIT = 2_000_000;

/**
 * Applies the fates the extraction walk decided (what DOMPurify would remove anyway, plus paste
 * mode's noscript unwrapping), in time linear in the document.
 *
 * Two ways, chosen per affected parent:
 *  - in place: each dropped child is removed and each unwrapped child's content moved before it. jsdom
 *    computes a child's index on every insertion and removal, in time proportional to its preceding
 *    siblings, so this is quadratic when one parent has thousands of fated children (minutes for
 *    20,000); but it leaves every kept sibling where it is.
 *  - rebuilt: the parent's children are taken off the front (index 0, constant time) into a fragment,
 *    skipping dropped nodes and splicing in the content of unwrapped ones, and the fragment goes back in
 *    one insertion. Linear, but every kept child is detached and attached again, and jsdom walks each
 *    moved subtree several times to do that: a `<script>` after the page's main wrapper used to cost a
 *    walk of the whole page.
 * In place is used while its index lookups stay under DIRECT_EDIT_LIMIT steps, rebuilt past that.
 */
export function pruneTree(document: Document, fates: ReadonlyMap<Node, Fate>): void {
  if (fates.size === 0) return;
  const parents = new Set<Node>();
  for (const node of fates.keys()) {
    // The parent that keeps the content: skip ancestors that are themselves unwrapped.
    let parent = node.parentNode;
    while (parent !== null && fates.get(parent) === "unwrap") parent = parent.parentNode;
    if (parent !== null) parents.add(parent);
  }
  for (const parent of parents) {
    if (inPlaceCost(parent, fates) <= DIRECT_EDIT_LIMIT) editInPlace(parent, fates);
    else rebuildChildren(document, parent, fates);
  }
}

/** Sibling steps the in-place edit of `parent` would cost: each moved or removed node costs its anchor's index. */
function inPlaceCost(parent: Node, fates: ReadonlyMap<Node, Fate>): number {
  let cost = 0;
  let index = 0;
  for (let child = parent.firstChild; child !== null; child = child.nextSibling, index += 1) {
    const fate = fates.get(child);
    if (fate === undefined) continue;
    cost += index;
    if (fate === "unwrap") cost += index * movedBy(child, fates, DIRECT_EDIT_LIMIT);
    if (cost > DIRECT_EDIT_LIMIT) return cost;
  }
  return cost;
}

/** Nodes an unwrap of `node` moves (its content, through nested unwraps), counted up to `cap`. */
function movedBy(node: Node, fates: ReadonlyMap<Node, Fate>, cap: number): number {
  let count = 0;
  const stack: Node[] = [node];
  while (stack.length > 0 && count <= cap) {
    const current = stack.pop() as Node;
    for (let child = current.firstChild; child !== null; child = child.nextSibling) {
      count += 1;
      if (fates.get(child) === "unwrap") stack.push(child);
    }
  }
  return count;
}

function editInPlace(parent: Node, fates: ReadonlyMap<Node, Fate>): void {
  let child: Node | null = parent.firstChild;
  while (child !== null) {
    const next: Node | null = child.nextSibling;
    const fate = fates.get(child);
    if (fate === "drop") parent.removeChild(child);
    else if (fate === "unwrap") unwrapBefore(parent, child, fates);
    child = next;
  }
}

/** Moves the content of `anchor` (fates applied, nested unwraps spliced) before it, then removes it. */
function unwrapBefore(parent: Node, anchor: Node, fates: ReadonlyMap<Node, Fate>): void {
  // Iterative splice: an unwrapped node becomes the source until it is empty (nesting-safe). Each
  // source's first child is always the next node in document order.
  const sources: Node[] = [anchor];
  while (sources.length > 0) {
    const source = sources[sources.length - 1] as Node;
    const child = source.firstChild;
    if (child === null) {
      sources.pop();
      if (source !== anchor) source.parentNode?.removeChild(source);
      continue;
    }
    const fate = fates.get(child);
    if (fate === "drop") source.removeChild(child);
    else if (fate === "unwrap") sources.push(child);
    else parent.insertBefore(child, anchor);
  }
  parent.removeChild(anchor);
}

function rebuildChildren(document: Document, parent: Node, fates: ReadonlyMap<Node, Fate>): void {
  const kept = document.createDocumentFragment();
  // Iterative splice: an unwrapped child becomes the source until it is empty (nesting-safe).
  const sources: Node[] = [parent];
  while (sources.length > 0) {
    const source = sources[sources.length - 1] as Node;
    const child = source.firstChild;
    if (child === null) {
      sources.pop();
      continue;
    }
    source.removeChild(child);
    const fate = fates.get(child);
    if (fate === "drop") continue;
    if (fate === "unwrap") sources.push(child);
    else kept.appendChild(child);
  }
  parent.appendChild(kept);
}
