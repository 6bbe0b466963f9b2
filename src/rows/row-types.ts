/**
 * The plain rows `sessionRows` turns a Session into: one interface per entity, every field a scalar
 * (`string`, `number`, `boolean` or `null`), so a row is one SQL row, one NDJSON line or one Parquet
 * record as it is. Lists and maps are JSON text (`*_json`). Times are epoch milliseconds (`UNKNOWN_TIME`,
 * 0, when unknown), durations milliseconds, tokens tokens, costs USD. Every row has a `key`, unique within
 * its entity and session (docs/index.md, "Rows").
 */

/** The `seq` of a session's first atom of no turn (2^32: after any turn's atoms a transcript can hold), the next ones
 * after it: the turns an append adds do not move them (`romp index` keeps their rows in place). */
export const OFF_TURN_SEQ: number = 2 ** 32;

/** A row field. */
export type Cell = string | number | boolean | null;

/** Who wrote a user atom, flattened: `author` is `human`, `sdk`, `system` or `peer` (`peer` then names the sender's
 * rompUuid, `null` when unknown). */
export interface AuthorCells {
  author: 'human' | 'sdk' | 'system' | 'peer' | null;
  peer: string | null;
}

/** Token columns, named as the streaming API's `usage` fields (tokens). */
export interface TokenCells {
  input_tokens: number;
  output_tokens: number;
  /** Cache writes, 5 m + 1 h (the nested breakdown when present, else the flat count). */
  cache_creation_input_tokens: number;
  /** Cache writes with the 5-minute TTL (`usage.cache_creation.ephemeral_5m_input_tokens`; the flat count when there is
   * no breakdown). */
  ephemeral_5m_input_tokens: number;
  /** Cache writes with the 1-hour TTL (`usage.cache_creation.ephemeral_1h_input_tokens`). */
  ephemeral_1h_input_tokens: number;
  cache_read_input_tokens: number;
}

/** One session (one rompUuid). */
export interface SessionRow extends TokenCells {
  /** The rompUuid (the first record's `sessionId` unless romp's registry names another). */
  key: string;
  /** The Claude session ids of its files (their fsids), JSON array, in time order. */
  session_ids_json: string;
  /** The transcript paths, JSON array, in the order of `session_ids_json`. */
  paths_json: string;
  /** Working directory (`cwd`) of the leaf line: the project. */
  project: string;
  /** Custom title, else AI title, else summary; `""` without one. */
  title: string;
  /** The git branch of the last line of the active path that names one (`gitBranch`); `null` when none does. */
  git_branch: string | null;
  /** fsid of the file holding the leaf. */
  leaf_fsid: string;
  /** Start of the first turn and end of the last (epoch ms; 0 when unknown). */
  first_t: number;
  last_t: number;
  turns: number;
  /** Atoms on the active path (turns' atoms). */
  atoms: number;
  /** Models answering in the session (`message.model`, `<synthetic>` left out), JSON array, sorted. */
  models_json: string;
  /** API responses, each once (`usage_facts` rows). */
  responses: number;
  /** USD at the built-in prices; responses of unpriced models add nothing (see `unpriced`). */
  cost_usd: number;
  /** Responses of a model with no price. */
  unpriced: number;
  /** Set when this session is a subagent's transcript: the parent's key and the spawning `tool_use_id`. */
  parent_key: string | null;
  parent_tool_use_id: string | null;
}

/** One turn: `romp turns --json`'s summary (`summarizeTurn`), flattened. */
export interface TurnRow extends AuthorCells, TokenCells {
  /** `Turn.id` (`${rompUuid}:${t}:${hash}`, fork-stable). */
  key: string;
  session_key: string;
  /** 1-based, as `romp show --turn N` numbers them. */
  index: number;
  /** uuid of the opener, `null` for an autonomous turn. */
  trigger: string | null;
  /** What was typed (`promptText`). */
  prompt: string;
  /** `turnOutcome`: `completed`, `interrupted`, `rejected`, `blocked`, `max_tokens`, `api_error`, `local`, `open`. */
  outcome: string;
  t: number;
  end: number;
  duration_ms: number;
  ended: boolean;
  atoms: number;
  /** `tool_use` calls by tool name, JSON object. */
  tools_json: string;
  responses: number;
  /** USD (unpriced responses add nothing). */
  cost_usd: number;
  unpriced: number;
  /** Whether some response holds no final `output_tokens` (a lower bound). */
  lower_bound: boolean;
  /** `Task` / `Agent` calls. */
  subagents: number;
}

/** One atom (one transcript line, one streaming message). */
export interface AtomRow extends AuthorCells {
  /** The line's uuid. */
  key: string;
  session_key: string;
  /** `Turn.id`; `null` off the active path (a dead branch, a stream subagent's atom). */
  turn_key: string | null;
  /** 1-based turn number; `null` with `turn_key`. */
  turn_index: number | null;
  /** Position in the session: the active path's atoms 0, 1, …; then the other atoms (of no turn: rewound lines, stream
   * subagents) from {@link OFF_TURN_SEQ} on, which an append does not move. */
  seq: number;
  /** The file (Claude session id) it was read from; `null` when unknown (a dead-branch line, a stream). */
  fsid: string | null;
  /** 1-based line and byte offset of the line in its file, when known (a dead-branch line's are). */
  line: number | null;
  byte_offset: number | null;
  /** `assistant`, `user`, `system`, `result`, `idle`. */
  type: string;
  subtype: string | null;
  t: number;
  parent_uuid: string | null;
  /** `message.id` and `requestId` of an assistant atom. */
  message_id: string | null;
  request_id: string | null;
  model: string | null;
  stop_reason: string | null;
  /** Whether it lies on the active path (false: a rewound branch). */
  on_path: boolean;
  /** A stream subagent's atom: the `tool_use_id` that spawned it. */
  subagent_of: string | null;
}

/**
 * How a block's text is searched: `typed` (a user atom's text written by a human, an SDK host or a peer),
 * `system` (a user atom's text Claude Code or a hook wrote), `assistant` (reply text), `thinking`,
 * `tool_use` (the input, as JSON), `tool_result` (the output), `other` (images, unknown blocks).
 */
export type BlockRole = 'typed' | 'system' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result' | 'other';

/** One content block of an atom's message. */
export interface BlockRow {
  /** `${atom uuid}:${index}`. */
  key: string;
  session_key: string;
  atom_key: string;
  turn_key: string | null;
  /** 0-based position in the message's `content`. */
  index: number;
  /** The block's `type` (`text`, `tool_use`, `tool_result`, `thinking`, `image`, …). */
  type: string;
  role: BlockRole;
  /** Author of the atom (user atoms), copied for filtering. */
  author: AuthorCells['author'];
  /** `tool_use`: its name; `tool_result`: the name of the call it answers (when on the path). */
  tool_name: string | null;
  tool_use_id: string | null;
  /** The searchable text, cut to `textCap` characters (never inside a surrogate pair). */
  text: string;
  /** Length of the full text (UTF-16 code units), cut or not. */
  text_length: number;
  /** `tool_result` blocks: `is_error`. */
  is_error: boolean;
  on_path: boolean;
}

/** One tool call: a `tool_use` paired with its `tool_result` (`toolCalls`). Its output is the result block's text
 * (`blocks`), not stored twice. */
export interface ToolCallRow {
  /** `tool_use_id`; a second orphan result for the same id gets `#2`, `#3`, … */
  key: string;
  session_key: string;
  turn_key: string;
  tool_use_id: string;
  name: string;
  /** One line (`toolLabel`), e.g. `Bash: npm test`. */
  input_summary: string;
  /** Atom holding the use; `null` for an orphan result. */
  use_key: string | null;
  /** Atom holding the result; `null` while none came. */
  result_key: string | null;
  t: number | null;
  end: number | null;
  duration_ms: number | null;
  is_error: boolean;
  /** The error text, cut as block text is. */
  error: string | null;
  /** The subagent session it spawned (its key), when linked. */
  subagent_key: string | null;
}

/** One API response, counted once (countUsage's rules), with its tokens and cost. */
export interface UsageFactRow extends TokenCells {
  /** The de-dup key (`factKey`), JSON text: `["message.id","requestId"]`; without `requestId`,
   * `["session","message.id"]` (the lake's and the index's rows: the line's `sessionId`). */
  key: string;
  session_key: string;
  message_id: string;
  request_id: string | null;
  /** The first atom of the response, and its turn. */
  atom_key: string;
  turn_key: string | null;
  model: string;
  /** The first line's time (epoch ms). */
  t: number;
  /** A stream subagent's response. */
  is_sidechain: boolean;
  /** No line of it had a `stop_reason`: `output_tokens` may be a lower bound. */
  lower_bound: boolean;
  /** USD at the built-in prices; `null` for a model with no price. */
  cost_usd: number | null;
}

/** One subagent spawned by the session: a `Task` / `Agent` call and the transcript (session) it ran as. */
export interface SubagentRow {
  /** The spawning `tool_use_id`. */
  key: string;
  session_key: string;
  /** The subagent transcript's session key; `null` for a stream subagent (its atoms are in `atoms`). */
  subagent_key: string | null;
  /** Its transcript path, when linked by file. */
  path: string | null;
  /** How it was linked: `meta` (the sidecar's `toolUseId`), `prompt`, or `stream` (`parent_tool_use_id`). */
  linked_by: string;
  /** Atoms of a stream subagent (0 for a linked file: count them in its own session). */
  atoms: number;
}

/** One diagnostic of the parse. */
export interface DiagnosticRow {
  /** Its position in the parse's diagnostics, as text (`0`, `1`, …). */
  key: string;
  session_key: string;
  code: string;
  severity: string;
  message: string;
  file: string;
  line: number | null;
  byte_offset: number | null;
  uuid: string | null;
}

/** Every row of one session, by entity (the table names of docs/index.md). */
export interface SessionRows {
  sessions: SessionRow[];
  turns: TurnRow[];
  atoms: AtomRow[];
  blocks: BlockRow[];
  tool_calls: ToolCallRow[];
  usage_facts: UsageFactRow[];
  subagents: SubagentRow[];
  diagnostics: DiagnosticRow[];
}

/** An entity of `SessionRows`: an index table, a lake dataset. */
export type RowEntity = keyof SessionRows;

/** Every entity of `SessionRows`, in the order rows are written (a session before its parts). */
export const ROW_ENTITIES: readonly RowEntity[] = [
  'sessions',
  'turns',
  'atoms',
  'blocks',
  'tool_calls',
  'usage_facts',
  'subagents',
  'diagnostics',
];
