/** One entry of a source's tree: its id and the id of the entry before it. */
export interface TreeLink {
  id: string;
  parent?: string;
}

/**
 * The ids on the path from `leaf` back to the root. Claude Code and pi write a tree (an edited
 * prompt or a branch starts a new child of an older entry); the conversation is the path to the
 * latest entry, and the other branches are no part of it. A loop or a missing parent ends the walk.
 */
export function activeBranch(links: readonly TreeLink[], leaf: string | undefined): Set<string> {
  const parents = new Map(links.map((link) => [link.id, link.parent]));
  const path = new Set<string>();
  let current = leaf;
  while (current !== undefined && parents.has(current) && !path.has(current)) {
    path.add(current);
    current = parents.get(current);
  }
  return path;
}
