import type { Author } from '../model/types.ts';

/**
 * Who wrote a user atom, in a word a page or an export shows: `human`, `sdk`, `system`,
 * `peer 1a2b3c4d` (the sender's rompUuid, first 8 characters; `peer ?` when the postal log does not
 * name it), or `autonomous` for a turn without an opener.
 * @param author the atom's author (`undefined` / `null`: none)
 * @returns `{kind, label}`: the class word (`human`, `sdk`, `system`, `peer`, `autonomous`) and the label
 */
export function authorName(author: Author | null | undefined): { kind: string; label: string } {
  if (author === null || author === undefined) return { kind: 'autonomous', label: 'autonomous' };
  if (typeof author === 'object')
    return { kind: 'peer', label: `peer ${author.peer === null ? '?' : author.peer.slice(0, 8)}` };
  return { kind: author, label: author };
}
