/** One hit of a search across sessions, in the shape `romp search --json` prints (issue 17). */
export interface SearchHit {
  /** Claude's session id: the viewer's page of it is `/s/<session_id>`. */
  session_id: string;
  /** The atom's uuid: the page's anchor. */
  uuid: string;
  /** The turn's 1-based number; `null` off the active path (a rewound branch). */
  turn: number | null;
  /** When (epoch ms). */
  t: number;
  /** Who wrote it: `human`, `sdk`, `peer`, `system`, `assistant`, `tool`, … */
  author: string;
  /** The matched block's role (`typed`, `assistant`, `thinking`, `tool_use`, …), when known: a hit in `thinking`
   * links to its page with `?open=thinking`, which opens the thinking blocks of the atom. */
  role?: string;
  /** The text around the match (plain text; the viewer escapes it). */
  snippet: string;
  /** Each match in `snippet`, `[start, end)` in UTF-16 code units; none marked when absent. */
  matches?: Array<[number, number]>;
  /** The session's title, when it has one. */
  title?: string;
  /** The session's project. */
  project?: string;
}

/** What the viewer's search gives: the hits, or why it cannot search. */
export type SearchAnswer = { hits: SearchHit[] } | { unavailable: string };

/**
 * The search behind `romp serve`'s search box (issue 18: "a search box (`romp search` behind it)").
 * @param query what was typed in the box
 * @param options the viewer's projects folder and the most hits wanted
 * @returns the hits, best first, or why there are none to give
 */
export type SessionSearch = (query: string, options: { projectsDir: string; limit: number }) => Promise<SearchAnswer>;

/** What the search page says when there is no index to search. */
export const NO_INDEX = 'search needs `romp index`';
