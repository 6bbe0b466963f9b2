import type { Author } from '../model/types.ts';
import type { AuthorCells } from './row-types.ts';

/**
 * An atom's `author` as two cells: `{peer}` becomes `author: "peer"` with the sender in `peer`.
 * @param author `Atom.author` (absent on assistant atoms and harness output)
 * @returns the cells; `author: null` without one
 */
export function normaliseAuthor(author: Author | undefined): AuthorCells {
  if (author === undefined) return { author: null, peer: null };
  if (typeof author === 'object') return { author: 'peer', peer: author.peer };
  return { author, peer: null };
}
