/**
 * The romp event model: `Session → Turn → Atom → ContentBlock`.
 *
 * Field names are the seed's (`../shared/seed/event-model.md`, "Schema") and the streaming API's,
 * verbatim. The whole tree is plain JSON: no classes, no `Map`s, no `Date`s; times are epoch
 * milliseconds. `docs/model.md` is the spec of every field.
 */
import type { BetaStopReason, BetaUsage } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type {
  ImageBlockParam,
  RedactedThinkingBlockParam,
  TextBlockParam,
  ThinkingBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/** A `text` block (Messages API `TextBlockParam`): `text` is a string. Other fields (`citations`, …) pass through. */
export type TextBlock = Pick<TextBlockParam, 'type' | 'text'>;

/** A `thinking` block (`ThinkingBlockParam`): `thinking` is a string; `signature` a string where written. */
export type ThinkingBlock = Pick<ThinkingBlockParam, 'type' | 'thinking'> & { signature?: string };

/** A `redacted_thinking` block (`RedactedThinkingBlockParam`): `data` is a string. */
export type RedactedThinkingBlock = Pick<RedactedThinkingBlockParam, 'type' | 'data'>;

/** A `tool_use` block (`ToolUseBlockParam`): `id` and `name` are strings, `input` is any JSON (present). */
export type ToolUseBlock = Pick<ToolUseBlockParam, 'type' | 'id' | 'name' | 'input'>;

/**
 * A `tool_result` block (`ToolResultBlockParam`): `tool_use_id` is a string; `content`, where present, a
 * string or blocks (each checked as a message's are); `is_error`, where present, a boolean. Its text:
 * `toolResultText`.
 */
export type ToolResultBlock = Pick<ToolResultBlockParam, 'type' | 'tool_use_id'> & {
  content?: string | MessageBlock[];
  is_error?: boolean;
};

/** An `image` block (`ImageBlockParam`): `source` is an object with a string `type` (`base64`, `url`, …). */
export type ImageBlock = Pick<ImageBlockParam, 'type'> & { source: { type: string; [field: string]: unknown } };

/**
 * A content block romp knows, a union discriminated on `type`: `if (block.type === 'text')` makes
 * `block.text` a `string`. The tree stage checks every known block's fields (`normaliseMessage`), so a
 * block of a known type whose fields do not fit reaches the model as an `OtherBlock`. Get one from a
 * `MessageBlock` with `isKnownBlock`.
 */
export type ContentBlock =
  TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock;

/**
 * A content block romp does not know, or a known type whose fields do not fit (a `text` block whose `text`
 * is not a string), passed through unchanged with whatever fields it carries: Claude Code and the API
 * add block types over time. An entry that is not an object reads `{type: "(invalid)", value}`.
 */
export interface OtherBlock {
  type: string;
  [field: string]: unknown;
}

/** @deprecated the old name of `OtherBlock`. */
export type UnknownBlock = OtherBlock;

/** One entry of a message's `content`: a known `ContentBlock` or an `OtherBlock`; tell them apart with `isKnownBlock`.
 * */
export type MessageBlock = ContentBlock | OtherBlock;

/**
 * Token usage of one API response, as the API reports it (tokens). Transcripts omit some of the
 * optional counters depending on the Claude Code version, so only the two the seed names are required.
 */
export type Usage = Partial<BetaUsage> & { input_tokens: number; output_tokens: number };

/** Why the model stopped: the API's `stop_reason`, or `null` while unknown. */
export type StopReason = BetaStopReason | (string & {}) | null;

/**
 * The Anthropic message an `assistant` or `user` atom carries. On assistant atoms this is the API
 * message verbatim (one content block per transcript line, sharing `id` across the lines of one
 * response); on user atoms a string `content` is normalised to one `text` block.
 */
export interface ApiMessage {
  role: 'assistant' | 'user';
  content: MessageBlock[];
  /** API message id (`msg_…`), shared by every line of one split response. Assistant only. */
  id?: string;
  model?: string;
  usage?: Usage;
  stop_reason?: StopReason;
}

/**
 * Who wrote a user atom: the one field romp adds over the stream (seed, "Authorship").
 * `{peer}` is a romp postal message; `peer` is the sender's rompUuid, or `null` when the message id
 * is not in romp's postal log.
 */
export type Author = 'human' | 'sdk' | 'system' | { peer: string | null };

/** `compact_metadata` of a `system:compact_boundary` atom, in the stream's snake_case. */
export interface CompactMetadata {
  trigger: 'auto' | 'manual' | (string & {});
  /** Context size before compaction (tokens). */
  pre_tokens: number;
  /** Context size after compaction (tokens), where the version writes it. */
  post_tokens?: number;
  /** How long the compaction took (ms), where the version writes it. */
  duration_ms?: number;
  preserved_segment?: { head_uuid: string; anchor_uuid: string; tail_uuid: string };
}

/** The `result` payload of a `result` atom (stream substrate only; transcripts have none). */
export interface ResultPayload {
  subtype: 'success' | 'error_during_execution' | 'error_max_turns' | (string & {});
  num_turns: number;
  stop_reason: string | null;
  usage: Usage;
  /** USD. */
  total_cost_usd: number;
  /** Wall time of the turn (ms). */
  duration_ms: number;
  is_error: boolean;
  /** Why the turn stopped (`completed`, `aborted_streaming`, `hook_stopped`, `api_error`, …), where the CLI writes it
   * (2.1.2xx+). */
  terminal_reason?: string;
  /** The local slash command the turn ran without a model call (`compact`, …), where the CLI writes it (2.1.2xx+). */
  local_command?: string;
}

/** The fields every atom may carry beside `type` and `message` (see `Atom`). */
export interface AtomFields {
  /** `system` atoms: `compact_boundary`; a user atom read from a `system` row keeps that row's subtype
   * (`informational`: a prompt a hook blocked). */
  subtype?: 'compact_boundary' | 'informational' | 'status' | 'task_notification' | (string & {});
  /** The line's uuid (same value in stream and transcript). */
  uuid: string;
  /** The session's rompUuid. */
  session_id: string;
  /** `system:compact_boundary` atoms. */
  compact_metadata?: CompactMetadata;
  /** `result` atoms. */
  result?: ResultPayload;
  /** assistant atoms: the API request id (transcript `requestId`, stream `request_id`), where written. */
  request_id?: string;
  /** `idle` atoms: the idle span is `[t, end]` (epoch ms). */
  end?: number;
  /**
   * Timestamp (epoch ms): the line's `timestamp` (a line without a readable one takes its neighbour's:
   * `BAD_TIMESTAMP`), or arrival time on a stream. `UNKNOWN_TIME` (0) when no line of the session has a
   * readable time: test it with `isKnownTime`.
   */
  t: number;
  /** File substrate: the transcript file (its Claude session id) this line physically lives in. */
  fsid?: string;
  /** File substrate: the graph link as written, `parentUuid ?? logicalParentUuid`. */
  parentUuid?: string;
  /** assistant atoms: Claude Code's `isApiErrorMessage` (`true`), on the `<synthetic>` line it writes for a failed
   * request. */
  isApiErrorMessage?: true;
  /** File substrate: Claude Code's raw `promptSource` (2.1.200+), absent on hook and tool_result lines. */
  promptSource?: 'typed' | 'queued' | 'sdk' | 'system' | (string & {});
  /** user atoms: who wrote it; absent on tool_result-only user atoms (harness output). */
  author?: Author;
}

/** A `user` or `assistant` atom: it always carries its Anthropic `message`. */
export interface MessageAtom extends AtomFields {
  type: 'assistant' | 'user';
  /** The Anthropic message. */
  message: ApiMessage;
}

/** A `system`, `result` or `idle` atom: no `message`. */
export interface EventAtom extends AtomFields {
  type: 'system' | 'result' | 'idle';
  message?: undefined;
}

/**
 * One atom = one transcript line = one streaming message (seed, "Hierarchy"), a union discriminated on
 * `type`: `if (atom.type === 'user')` makes `atom.message` present.
 *
 * `type`/`subtype` are the streaming message's; `idle` is romp's one synthetic kind.
 */
export type Atom = MessageAtom | EventAtom;

/** The user atom that opened a turn (seed: "a trigger is simply a user message"). */
export interface Trigger {
  uuid: string;
}

/**
 * A contiguous group of atoms from a trigger to the next turn boundary (`end_turn` / `result`).
 * A turn has no kind: its character is its trigger.
 */
export interface Turn {
  /** `${rompUuid}:${t}:${hash}`, hash of the trigger's uuid (else the first atom's): fork-stable. */
  id: string;
  /** The opener atom, or `null` for an autonomous / continuation turn. */
  trigger: Trigger | null;
  /** Start (epoch ms): the trigger's `t`, else the first atom's; `UNKNOWN_TIME` when unknown (see `Atom.t`). */
  t: number;
  /** End (epoch ms): the latest `t` (or idle `end`) of its atoms. */
  end: number;
  /** Whether the turn reached its boundary (see docs/model.md, "ended"). */
  ended: boolean;
  /** Every atom of the turn, in conversation order (the active path's; see docs/model.md). */
  atoms: Atom[];
}

/** One transcript file of a session. */
export interface SessionFile {
  /** The file's Claude session id: its name without `.jsonl` (made unique within the session). */
  fsid: string;
  /** The path as given to the parser. */
  path: string;
}

/**
 * A line that is not an atom but is kept reachable: metadata records (`summary`, `custom-title`,
 * `file-history-snapshot`, `queue-operation`, ...), `progress`, attachments, system rows other than
 * `compact_boundary`, and message lines off the active path (dead branches, sidechains, pre-clear).
 */
export interface RecordRef {
  fsid: string;
  /** 1-based line number in the file. */
  line: number;
  /** Byte offset of the line's first byte in the file. */
  byteOffset: number;
  /** The record's `type` (`"(missing)"` when it has none). */
  type: string;
  subtype?: string;
  uuid?: string;
  /** uuid-bearing records: whether the line lies on the active path (a progress row: whether the path runs through it).
   * */
  onPath?: boolean;
  /** Present (`true`) on subagent lines (`isSidechain`). */
  isSidechain?: true;
  /** `queue-operation` records: their time (epoch ms); their `operation` is the `subtype`. */
  t?: number;
}

/** One inline sidechain: a subagent's lines written into its parent's file (`inlineSidechains`). */
export interface Sidechain {
  /** The `Task` / `Agent` call that started it (its `input.prompt` is the sidechain's first user text); `null`: none
   * found. */
  tool_use_id: string | null;
  /** Its atoms, in file order. */
  atoms: Atom[];
}

/**
 * A session: everything romp knows of one conversation, keyed by its stable rompUuid.
 */
export interface Session {
  /** The stable identity key; defaults to the `sessionId` of the first record read. */
  rompUuid: string;
  /** The last `custom-title`, else `ai-title`, else the `summary` for the leaf; `""` without one. */
  name: string;
  /** Working directory (`cwd`) of the leaf line. */
  dir: string;
  /** The git branch Claude Code wrote on the last line of the active path that has one (`gitBranch`); absent when no
   * line has one. */
  gitBranch?: string;
  /** A `#rrggbb` colour derived from the rompUuid. */
  color: string;
  /** fsid of the file holding the leaf: the walk's start pointer. */
  leafFsid: string;
  /** Turns, oldest → newest. */
  turns: Turn[];
  /** The files read, in time order (by their first timestamp). */
  files: SessionFile[];
  /** Every non-atom record, in file order: nothing read is lost. */
  records: RecordRef[];
  /**
   * Subagent atoms, by the `tool_use` id that spawned them (stream: frames with `parent_tool_use_id`). An
   * object without a prototype (`keyed`), so an id such as `__proto__` is an ordinary key.
   */
  subagents?: Record<string, Atom[]>;
  /**
   * The subagent conversations Claude Code ≤ 2.0.27 wrote into this session's own file (lines with
   * `isSidechain: true`), each tied to the `Task` / `Agent` call that started it when one is found. In file order of
   * their first lines; absent when there is none. Their lines are in `records` too.
   */
  sidechains?: Sidechain[];
  /** `idle` atoms of spans that began before the first turn (romp's state log). */
  idle?: Atom[];
}
