import { clipMatched, unmark } from '../text/match-marks.ts';
import type { Database, SqlValue } from './database.ts';

/** Filters of `searchIndex`. */
export interface SearchFilter {
  /** Only blocks of user atoms by this author: `human`, `sdk`, `peer`, `system` (assistant text and tool output have
   * none). */
  author?: string;
  /** Only `tool_use` / `tool_result` blocks of this tool (its name in any ASCII case: `bash` is `Bash`). */
  tool?: string;
  /** Only sessions of this project folder (its name under the projects folder). */
  projectFolder?: string;
  /** Only atoms at or after / before this time (epoch ms). */
  since?: number;
  until?: number;
  /** Most hits (default 20). */
  limit?: number;
  /** Rewound branches too (default: the active path only). */
  allBranches?: boolean;
  /** Most blocks of a tier ranked by bm25 before the filters (default {@link RANKED_AT_MOST}; tests make it small). */
  rankedAtMost?: number;
}

/** One hit: a block whose text matched. */
export interface SearchHit {
  /** The session's key (its rompUuid). */
  session_id: string;
  /** The atom's uuid and time (epoch ms). */
  uuid: string;
  t: number;
  /** 1-based turn number; `null` off the active path. */
  turn: number | null;
  author: string | null;
  /** The block's role (`typed`, `assistant`, `thinking`, `tool_use`, `tool_result`, `system`, `other`). */
  role: string;
  tool: string | null;
  /** The session's title (`sessions.title`), else the title `romp ls` lists for its transcript (`listings`: a `summary`
   * record, which the session takes only for the leaf it names); `""` without one. */
  title: string;
  /** Without a title, the session's first prompt as `romp ls` lists it (its transcript's listing, `listings`), else
   * `""` (a subagent's transcript has no listing). */
  first_prompt: string;
  project: string;
  /** The session's git branch (`sessions.git_branch`); `null` when no line names one. */
  git_branch: string | null;
  /** The session's transcript file, and the Claude session id to resume (the leaf's file; for a subagent's
   * transcript its parent session's: Claude Code resumes sessions, not a subagent's file; the parent's id, the first
   * part of the subagent's key, also when the parent's transcript is not in the folder). */
  path: string;
  resume_id: string;
  on_path: boolean;
  /** Up to about 12 words around the match, whitespace runs as one space, without marks (`matches` says where the
   * matches are; `markMatches` puts marks back). Transcript text: escape it before printing. */
  snippet: string;
  /** Each match in `snippet`: `[start, end)` in UTF-16 code units (JavaScript's `slice`), in order. */
  matches: Array<[number, number]>;
  /** Which index matched: `words` (unicode61 tokens: typed text first, then bm25 assistant 5 : tools 1), or
   * `substring` (trigram). */
  matched: 'words' | 'substring';
}

/**
 * Full-text search over the index's blocks (docs/index.md, "Search"): every word of the query must be
 * in one block (each word quoted, so FTS5 syntax in a query is text; whitespace and control characters
 * separate words); what a person typed first, then every other block ({@link RANK_TIERS}), each tier by bm25
 * (assistant text weighted 5, tool input and output 1; a common word's {@link RANKED_AT_MOST} newest blocks of a
 * tier), then newest first (the higher id: ids follow time, `blockIds`). When the words find
 * nothing (a part of a word, text without spaces such as Chinese or Japanese), the trigram index finds
 * blocks holding each word of three characters or more as a substring (in a tool input, in its first
 * `TRIGRAM_TOOL_INPUT_CHARS`, 1,024, characters; not in a tool output: it is found by its words only).
 * @param db the index
 * @param query the words to find
 * @param filter author, tool, project, time range, limit, branches
 * @returns the hits, best first
 */
export function searchIndex(db: Database, query: string, filter: SearchFilter = {}): SearchHit[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' ');
  const { where, params } = filters(filter);
  const limit = filter.limit ?? 20;
  const select = `SELECT b.id, b.session_key, b.atom_key, b.role, b.author, b.tool_name, b.text, b.on_path, a.t, a.turn_index, CASE WHEN s.title <> '' THEN s.title ELSE coalesce((SELECT json_extract(l.listing_json, '$.title') FROM listings l WHERE l.path = json_extract(s.paths_json, '$[0]')), '') END AS title, CASE WHEN s.title <> '' THEN '' ELSE coalesce((SELECT CASE WHEN json_extract(l.listing_json, '$.title') = '' THEN json_extract(l.listing_json, '$.firstPrompt') ELSE '' END FROM listings l WHERE l.path = json_extract(s.paths_json, '$[0]')), '') END AS first_prompt, s.project, s.git_branch, coalesce(p.leaf_fsid, CASE WHEN instr(s.key, '/') > 0 AND EXISTS (SELECT 1 FROM files f WHERE f.session_key = s.key AND f.parent_path IS NOT NULL) THEN substr(s.key, 1, instr(s.key, '/') - 1) ELSE s.leaf_fsid END) AS resume_fsid, s.paths_json`;
  const from = `JOIN blocks b ON b.id = fts.rowid JOIN atoms a ON a.session_key = b.session_key AND a.key = b.atom_key JOIN sessions s ON s.key = b.session_key LEFT JOIN sessions p ON p.key = s.parent_key`;
  // candidates checked against the filters: a few more than asked for when only rewound blocks are left out, many
  // more with filters of the user's (each one checked costs a few pages read)
  const narrowed = ['author', 'tool', 'projectFolder', 'since', 'until'].some(
    (k) => filter[k as keyof SearchFilter] !== undefined,
  );
  const pool = narrowed ? Math.max(200, limit * 10) : Math.max(40, limit * 2);
  const ids: SqlValue[] = [];
  for (const tier of RANK_TIERS) {
    const need = limit - ids.length;
    if (need <= 0) break;
    // the tier's blocks carry no author or no tool: the filter leaves none of them
    if ((filter.author !== undefined && !tier.author) || (filter.tool !== undefined && !tier.tool)) continue;
    const q = tier.columns === undefined ? match : `${tier.columns} : (${match})`;
    ids.push(...rankTier(db, q, `${tier.where} ${where}`, params, { need, pool, cap: filter.rankedAtMost }, from));
  }
  if (ids.length > 0) {
    const list = JSON.stringify(ids);
    const rows = new Map(
      db
        .all(
          `${select} FROM ${from.replace('JOIN blocks b ON b.id = fts.rowid', 'blocks b')} WHERE b.id IN (SELECT value FROM json_each(?))`,
          [list],
        )
        .map((r) => [r['id'], r]),
    );
    const snippets = new Map(
      db
        .all(
          `SELECT rowid, snippet(blocks_fts, -1, char(2), char(3), '…', 12) AS snippet FROM blocks_fts WHERE blocks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
          [match, list],
        )
        .map((r) => [r['rowid'], String(r['snippet'])]),
    );
    return ids.map((id) => hit(rows.get(id) as Row, snippets.get(id) ?? '', 'words'));
  }
  // the trigram index answers words of three characters or more (LIKE on a trigram table is answered by
  // its index, on what it holds, `trigram_text`; not with an ESCAPE clause: a % or _ in a word matches any
  // characters; detail=none keeps the index small); a shorter word is a LIKE on the blocks the others found,
  // or on every block. Newest first in the order the index yields its rows (`fts.rowid`, ids in time order): the
  // first `limit` that pass end the search; ordered by `b.id`, every match was found and sorted first (two seconds
  // for a common part of a word at the issue's size, against 16 ms)
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  const like = [...long.map(() => 'fts.trigram_text LIKE ?'), ...short.map(() => 'b.text LIKE ?')].join(' AND ');
  const substring = db.all(
    `${select} FROM ${long.length > 0 ? `blocks_trigram AS fts ${from}` : from.replace('JOIN blocks b ON b.id = fts.rowid', 'blocks b')} WHERE ${like} ${where} ORDER BY ${long.length > 0 ? 'fts.rowid' : 'b.id'} DESC LIMIT ?`,
    [...[...long, ...short].map((w) => `%${w}%`), ...params, limit],
  );
  return substring.map((r) => hit(r, around(String(r['text']), words[0] as string), 'substring'));
}

/**
 * The words a search looks for: the query split at whitespace and control characters (a NUL would end FTS5's quoted
 * string mid-word).
 * @param query what was asked
 * @returns the words, none for a query of separators only
 */
export function queryWords(query: string): string[] {
  return query.split(/[\s\u0000-\u001f\u007f]+/).filter((w) => w !== '');
}

type Row = Record<string, SqlValue>;

/**
 * The best blocks of one tier that pass the filters: the tier's newest `cap` ({@link RANKED_AT_MOST}) matches (the
 * highest rowids: ids follow time) ranked by
 * bm25 in the full-text index alone, then checked against the filters best first, `pool` of them, then the next
 * `pool` × 9 (ids only: a block's text is read for the hits alone) while fewer than `need` pass; by score,
 * then newest first. When the filters leave fewer than `need` of those and the tier has more matches, every match of
 * the tier is ranked (a filter that leaves few blocks, on a common word).
 * @returns the hits' block ids, best first
 */
function rankTier(
  db: Database,
  q: string,
  where: string,
  params: SqlValue[],
  { need, pool, cap = RANKED_AT_MOST }: { need: number; pool: number; cap?: number | undefined },
  from: string,
): SqlValue[] {
  const scored = `SELECT rowid, bm25(blocks_fts, 10.0, 5.0, 1.0) AS score FROM blocks_fts WHERE blocks_fts MATCH ?`;
  // the best pool × 10 (a row handed to JavaScript costs µs): the first pool checked, then the rest; the rowid (time
  // order, `blockIds`) breaks ties, the same after a rebuild
  const best = db.all(
    `SELECT rowid, score FROM (${scored} ORDER BY rowid DESC LIMIT ?) ORDER BY score, rowid DESC LIMIT ${pool * 10}`,
    [q, cap],
  );
  const kept: Array<{ id: SqlValue; score: number }> = [];
  for (let checked = 0, size = pool; checked < best.length && kept.length < need; size = best.length) {
    let end = Math.min(best.length, checked + size);
    // blocks of one score are checked together: newest first among them
    while (end < best.length && best[end]?.['score'] === best[end - 1]?.['score']) end++;
    const scores = new Map(best.slice(checked, end).map((r) => [r['rowid'], Number(r['score'])]));
    checked = end;
    for (const r of db.all(
      `SELECT b.id FROM ${from.replace('JOIN blocks b ON b.id = fts.rowid', 'blocks b')} WHERE b.id IN (SELECT value FROM json_each(?)) ${where}`,
      [JSON.stringify([...scores.keys()]), ...params],
    ))
      kept.push({ id: r['id'] as SqlValue, score: scores.get(r['id']) as number });
  }
  // every match checked and too few passed, and the cap (or pool × 10) left matches out: rank them all
  if (kept.length < need && best.length === Math.min(cap, pool * 10)) {
    const all = db.all(
      `SELECT b.id FROM (${scored}) AS r ${from.replace('fts.rowid', 'r.rowid')} WHERE 1 ${where} ORDER BY r.score, b.id DESC LIMIT ?`,
      [q, ...params, need],
    );
    return all.map((r) => r['id'] as SqlValue);
  }
  kept.sort((x, y) => x.score - y.score || Number(y.id) - Number(x.id));
  return kept.slice(0, need).map((r) => r.id);
}

/**
 * The tiers of a search, each tier's hits ranked before the next tier's: what a person typed (the `typed` column, FTS5
 * column filter), then every other block (assistant text weighted 5, tool input and output 1). The tier's blocks may
 * carry an author (typed, `system`) and a tool name (tool input and output).
 */
const RANK_TIERS = [
  { columns: '{typed}', where: '', author: true, tool: false },
  { columns: undefined, where: "AND b.role <> 'typed'", author: true, tool: true },
] as const;

/** Most blocks of a tier ranked by bm25 for a query before the filters (a common word is in 100,000 blocks of a
 * 5,000-session index: ranking them all takes a tenth of a second): the tier's newest (highest rowid: a block's id
 * follows its atom's time, `blockIds`, the same whatever order the files were read in). When the
 * filters leave fewer hits than asked for among the best of them, every block of the tier is ranked. */
export const RANKED_AT_MOST = 2000;

function filters(filter: SearchFilter): { where: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, value: SqlValue): void => {
    parts.push(sql);
    params.push(value);
  };
  if (filter.allBranches !== true) parts.push('b.on_path = 1');
  if (filter.author !== undefined) add('b.author = ?', filter.author);
  // `bash` for `Bash`: the name as typed, in any case (ASCII)
  if (filter.tool !== undefined) add('b.tool_name = ? COLLATE NOCASE', filter.tool);
  if (filter.projectFolder !== undefined)
    add('s.key IN (SELECT session_key FROM files WHERE project = ?)', filter.projectFolder);
  if (filter.since !== undefined) add('a.t >= ?', filter.since);
  if (filter.until !== undefined) add('a.t < ?', filter.until);
  return { where: parts.map((p) => `AND ${p}`).join(' '), params };
}

function hit(r: Record<string, SqlValue>, snippet: string, matched: SearchHit['matched']): SearchHit {
  const paths = JSON.parse(String(r['paths_json'])) as string[];
  return {
    session_id: String(r['session_key']),
    uuid: String(r['atom_key']),
    t: Number(r['t']),
    turn: r['turn_index'] === null ? null : Number(r['turn_index']),
    author: r['author'] === null ? null : String(r['author']),
    role: String(r['role']),
    tool: r['tool_name'] === null ? null : String(r['tool_name']),
    title: String(r['title']),
    first_prompt: String(r['first_prompt']),
    project: String(r['project']),
    git_branch: r['git_branch'] === null ? null : String(r['git_branch']),
    path: paths[0] ?? '',
    resume_id: String(r['resume_fsid']),
    on_path: r['on_path'] === 1,
    ...snippetOf(snippet),
    matched,
  };
}

/** Code units a snippet keeps at most (`clipMatched`): 12 tokens of FTS5's can be a whole long line. */
const SNIPPET_MAX = 240;

/** A snippet whose matches are between \u0002 and \u0003 as plain text (whitespace runs as one space, at most
 * `SNIPPET_MAX` code units around the first match) and its matches' offsets. */
function snippetOf(marked: string): Pick<SearchHit, 'snippet' | 'matches'> {
  const { text, matches } = clipMatched(unmark(marked.replace(/\s+/g, ' ').trim(), '\u0002', '\u0003'), SNIPPET_MAX);
  return { snippet: text, matches };
}

/**
 * About 40 characters either side of the first case-insensitive occurrence of `word` in `text`, the
 * match between \u0002 and \u0003 (`hit` takes them out, keeping where they were). The match is found in the lowercased
 * text and marked in the text itself: lowercasing can change a text's length (`İ` becomes two code
 * units), so each lowercased code unit keeps the index of the character it came from.
 * @param text a block's text
 * @param word the word searched for
 * @returns the snippet; the first 80 code units when `word` is not in the text
 */
export function around(text: string, word: string): string {
  const { lower, from } = fold(text);
  const needle = fold(word).lower;
  const found = needle === '' ? -1 : lower.indexOf(needle);
  if (found < 0) return text.slice(0, 80);
  const at = from[found] as number;
  const last = from[found + needle.length - 1] as number;
  // the end of the character the match's last code unit came from
  const stop = last + charAt(text, last).length;
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, stop + 40);
  return `${start > 0 ? '…' : ''}${text.slice(start, at)}\u0002${text.slice(at, stop)}\u0003${text.slice(stop, end)}${end < text.length ? '…' : ''}`;
}

/** The text lowercased character by character, and for each code unit of it the index of its character in `text`. */
function fold(text: string): { lower: string; from: number[] } {
  const from: number[] = [];
  let lower = '';
  for (let i = 0; i < text.length;) {
    const char = charAt(text, i);
    const folded = char.toLowerCase();
    for (let k = 0; k < folded.length; k++) from.push(i);
    lower += folded;
    i += char.length;
  }
  return { lower, from };
}

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i) as number);
}
