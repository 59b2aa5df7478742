/** What happens to a node before sanitizing: removed with its content, or replaced by its content. */
export type Fate = "drop" | "unwrap";

/**
 * Applies the fates the extraction walk decided (what DOMPurify would remove anyway, plus paste
 * mode's noscript unwrapping) in time linear in the document.
 *
 * Why not just `node.remove()`: jsdom computes a child's index on every insertion and removal, in
 * time proportional to its preceding siblings, so removing or unwrapping 20,000 siblings one by one
 * is quadratic (minutes). Instead each affected parent is rebuilt: its children are taken off the
 * front (index 0, constant time) and appended to a fragment, skipping dropped nodes and splicing in
 * the content of unwrapped ones, and the fragment goes back in one insertion.
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
  for (const parent of parents) rebuildChildren(document, parent, fates);
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
