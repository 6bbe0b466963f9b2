import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { openIndexForRead } from '../index-db/open-index.ts';
import { searchIndex } from '../index-db/search-index.ts';
import { indexPath } from '../index-db/update-index.ts';
import { rompHome } from '../romp-home/romp-home.ts';
import { NO_INDEX, type SessionSearch } from './session-search.ts';

/**
 * The search of `romp serve`'s box: `romp search --no-refresh` over romp's index (`searchIndex` on
 * `$ROMP_HOME/index.db`, opened read-only: the viewer writes nothing, so it never refreshes the index;
 * `romp index` does). A hit's page is the session's leaf file (`resume_id`, the Claude session id the
 * viewer lists; a subagent's hit opens its parent session, where the subagent shows under its call); its
 * author is the block's author, else its role, with the tool's name.
 * @param home romp's home (default `rompHome()`)
 * @returns the search; without a usable index it answers "search needs `romp index`"
 */
export function indexSearch(home?: string): SessionSearch {
  return (query, { limit }) => {
    const path = indexPath(rompHome(home));
    if (!existsSync(path)) return Promise.resolve({ unavailable: NO_INDEX });
    const db = openIndexForRead(path);
    if (typeof db === 'string') return Promise.resolve({ unavailable: `${NO_INDEX} (${path}: ${db})` });
    try {
      const hits = searchIndex(db, query, { limit }).map((h) => ({
        session_id: basename(h.resume_id.replace(/~\d+$/, ''), '.jsonl'),
        uuid: h.uuid,
        turn: h.turn,
        t: h.t,
        author: [h.author ?? h.role, h.tool].filter((x) => x !== null).join(' '),
        role: h.role,
        snippet: h.snippet,
        matches: h.matches,
        title: h.title,
        project: h.project,
      }));
      return Promise.resolve({ hits });
    } finally {
      db.close();
    }
  };
}
