import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Author, Atom, MessageBlock, Session, Turn } from '../model/types.ts';
import { normaliseAuthor } from './author-cells.ts';
import { offPathRef } from './off-path-ref.ts';
import { blockText, capText, TEXT_CAP, TOOL_TEXT_CAP } from './block-text.ts';
import {
  OFF_TURN_SEQ,
  type AtomRow,
  type BlockRole,
  type BlockRow,
  type DiagnosticRow,
  type SessionRow,
  type SessionRows,
  type SubagentRow,
  type TokenCells,
  type TurnRow,
  type UsageFactRow,
} from './row-types.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { toolCallRows } from './tool-call-rows.ts';
import { usageFactRows } from './usage-fact-rows.ts';
import type { Branch } from '../html/read-branches.ts';
import { minOf } from '../model/extremes.ts';

/** A subagent transcript linked to one of the session's `Task` / `Agent` calls (`findSubagents`). */
export interface LinkedSubagent {
  tool_use_id: string;
  /** The subagent session's key (its rompUuid). */
  key: string;
  path: string;
  by: 'meta' | 'prompt';
}

/** What rows need beside the Session. Everything is optional. */
export interface RowContext {
  /** The parse's diagnostics (`ParseResult.diagnostics`). */
  diagnostics?: readonly Diagnostic[];
  /** Rewound branches (`readBranches`): their atoms and blocks become rows with `on_path: false`. */
  branches?: readonly Branch[];
  /** Subagent transcripts linked to this session's calls. */
  subagents?: readonly LinkedSubagent[];
  /** When this session is a subagent's transcript: its parent's key and the spawning call (`null`: no call links it).
   * */
  parent?: { key: string; tool_use_id: string | null };
  /** Characters of block text kept (default `TEXT_CAP`, 4096). */
  textCap?: number;
  /** Characters of tool input and output text kept (default `TOOL_TEXT_CAP`, 2048; never more than `textCap`). */
  toolTextCap?: number;
  /**
   * Only the rows of these turns (by `Turn.id`) in `turns`, `atoms`, `blocks`, `tool_calls` and
   * `usage_facts`, with the rows that belong to no turn: for rewriting what an append changed. The
   * session row still sums every response. Default: every turn.
   */
  onlyTurns?: ReadonlySet<string>;
  /**
   * When `session` holds only the last turns of a session (a tail read alone: docs/index.md, "Freshness"): the
   * `sessionTotals` of the turns before them. Turn numbers and `seq` go on after them, and the session row sums them
   * with the session's own, in the order a whole session's row sums its turns.
   */
  before?: SessionTotals;
}

/** The sums a session row makes over its turns (`sessionTotals`), the models as a sorted list. */
export interface SessionTotals extends TokenCells {
  first_t: number;
  last_t: number;
  turns: number;
  atoms: number;
  models: string[];
  responses: number;
  cost_usd: number;
  unpriced: number;
}

/**
 * What a session row sums of its turns and their usage facts (`usageFactRows`, in its order): the first known start and
 * the last end (epoch ms, 0 when unknown), turns, atoms, models, tokens, responses, cost (USD) and unpriced responses,
 * going on from `before` (the turns before these) when given: the same sums, added in the same order, as over all
 * turns.
 * @param turns the turns
 * @param facts their usage facts, as `usageFactRows` gives them
 * @param before the totals of the turns before, if any
 * @returns the totals
 */
export function sessionTotals(
  turns: readonly Turn[],
  facts: readonly UsageFactRow[],
  before?: SessionTotals,
): SessionTotals {
  const sum = (f: (r: UsageFactRow) => number, from: number): number => facts.reduce((n, r) => n + f(r), from);
  const known = turns.filter((t) => t.t !== 0).map((t) => t.t);
  if (before !== undefined && before.first_t !== 0) known.push(before.first_t);
  return {
    first_t: known.length === 0 ? 0 : minOf(known),
    last_t: turns.reduce((m, t) => Math.max(m, t.end), before?.last_t ?? 0),
    turns: (before?.turns ?? 0) + turns.length,
    atoms: turns.reduce((n, t) => n + t.atoms.length, before?.atoms ?? 0),
    models: [...new Set([...(before?.models ?? []), ...facts.map((r) => r.model)])].sort(),
    input_tokens: sum((r) => r.input_tokens, before?.input_tokens ?? 0),
    output_tokens: sum((r) => r.output_tokens, before?.output_tokens ?? 0),
    cache_creation_input_tokens: sum((r) => r.cache_creation_input_tokens, before?.cache_creation_input_tokens ?? 0),
    ephemeral_5m_input_tokens: sum((r) => r.ephemeral_5m_input_tokens, before?.ephemeral_5m_input_tokens ?? 0),
    ephemeral_1h_input_tokens: sum((r) => r.ephemeral_1h_input_tokens, before?.ephemeral_1h_input_tokens ?? 0),
    cache_read_input_tokens: sum((r) => r.cache_read_input_tokens, before?.cache_read_input_tokens ?? 0),
    responses: (before?.responses ?? 0) + facts.length,
    cost_usd: sum((r) => r.cost_usd ?? 0, before?.cost_usd ?? 0),
    unpriced: (before?.unpriced ?? 0) + facts.filter((r) => r.cost_usd === null).length,
  };
}

/**
 * One session as plain rows per entity (docs/index.md, "Rows"): the session, its turns
 * (`summarizeTurn`), atoms, blocks (text cut to `textCap` characters, full length kept), tool calls
 * (`toolCalls`), usage facts (one per API response, `atomResponses`), subagents and diagnostics.
 * Tool input and output text is cut to `toolTextCap` (2048) characters.
 * Pure; the same Session and context give the same rows, in the same order.
 * @param session a parsed session
 * @param context diagnostics, dead branches, subagent links, parent link, text cap
 * @returns the rows; `sessions` holds exactly one
 */
export function sessionRows(session: Session, context: RowContext = {}): SessionRows {
  const key = session.rompUuid;
  const cap = context.textCap ?? TEXT_CAP;
  const caps = { text: cap, tool: Math.min(cap, context.toolTextCap ?? TOOL_TEXT_CAP) };
  const atoms: AtomRow[] = [];
  const blocks: BlockRow[] = [];
  const toolNames = new Map<string, string>();
  const only = context.onlyTurns;
  const wanted = (turnKey: string | null): boolean => only === undefined || turnKey === null || only.has(turnKey);
  const before = context.before;
  const turns: TurnRow[] = session.turns.flatMap((turn, i) => {
    if (!wanted(turn.id)) return [];
    const s = summarizeTurn(turn, (before?.turns ?? 0) + i + 1);
    const { usage } = s;
    return {
      key: turn.id,
      session_key: key,
      index: s.index,
      trigger: s.trigger,
      ...normaliseAuthor(s.author ?? undefined),
      prompt: s.prompt,
      outcome: s.outcome,
      t: s.t,
      end: s.end,
      duration_ms: s.duration_ms,
      ended: s.ended,
      atoms: s.atoms,
      tools_json: JSON.stringify(s.tools),
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      ephemeral_5m_input_tokens: usage.cache_creation_5m,
      ephemeral_1h_input_tokens: usage.cache_creation_1h,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      responses: usage.responses,
      cost_usd: s.cost_usd,
      unpriced: usage.unpriced,
      lower_bound: usage.lowerBound,
      subagents: s.subagents,
    } satisfies TurnRow;
  });
  let seq = before?.atoms ?? 0;
  const add = (atom: Atom, place: AtomPlace): void => {
    atoms.push(atomRow(atom, place, key, seq++));
    for (const row of blockRows(atom, key, place.turn_key, place.on_path, caps, toolNames)) blocks.push(row);
  };
  session.turns.forEach((turn, i) => {
    if (!wanted(turn.id)) {
      seq += turn.atoms.length;
      return;
    }
    for (const atom of turn.atoms)
      add(atom, {
        turn_key: turn.id,
        turn_index: (before?.turns ?? 0) + i + 1,
        on_path: true,
        subagent_of: null,
        line: null,
        byte_offset: null,
      });
  });
  // the atoms of no turn: numbered from their own start, so that the turns an append adds do not move them
  seq = OFF_TURN_SEQ;
  for (const branch of context.branches ?? []) {
    for (const line of branch.lines) {
      const ref = offPathRef(session.records, line.uuid);
      const atom: Atom = {
        type: line.type,
        uuid: line.uuid,
        session_id: key,
        message: line.message,
        t: line.t,
        ...(ref === undefined ? {} : { fsid: ref.fsid }),
        ...(line.parentUuid === null ? {} : { parentUuid: line.parentUuid }),
      };
      add(atom, {
        turn_key: null,
        turn_index: null,
        on_path: false,
        subagent_of: null,
        line: ref?.line ?? null,
        byte_offset: ref?.byteOffset ?? null,
      });
    }
  }
  const streamed = Object.entries(session.subagents ?? {});
  for (const [toolUseId, list] of streamed)
    for (const atom of list)
      add(atom, {
        turn_key: null,
        turn_index: null,
        on_path: true,
        subagent_of: toolUseId,
        line: null,
        byte_offset: null,
      });
  const links = context.subagents ?? [];
  const usage_facts = usageFactRows(session, key);
  const subagents: SubagentRow[] = [
    ...links.map((l) => ({
      key: l.tool_use_id,
      session_key: key,
      subagent_key: l.key,
      path: l.path,
      linked_by: l.by,
      atoms: 0,
    })),
    ...streamed.map(([id, list]) => ({
      key: id,
      session_key: key,
      subagent_key: null,
      path: null,
      linked_by: 'stream',
      atoms: list.length,
    })),
  ];
  const totals = sessionTotals(session.turns, usage_facts, before);
  const row: SessionRow = {
    key,
    session_ids_json: JSON.stringify(session.files.map((f) => f.fsid)),
    paths_json: JSON.stringify(session.files.map((f) => f.path)),
    project: session.dir,
    title: session.name,
    git_branch: session.gitBranch ?? null,
    leaf_fsid: session.leafFsid,
    first_t: totals.first_t,
    last_t: totals.last_t,
    turns: totals.turns,
    atoms: totals.atoms,
    models_json: JSON.stringify(totals.models),
    input_tokens: totals.input_tokens,
    output_tokens: totals.output_tokens,
    cache_creation_input_tokens: totals.cache_creation_input_tokens,
    ephemeral_5m_input_tokens: totals.ephemeral_5m_input_tokens,
    ephemeral_1h_input_tokens: totals.ephemeral_1h_input_tokens,
    cache_read_input_tokens: totals.cache_read_input_tokens,
    responses: totals.responses,
    cost_usd: totals.cost_usd,
    unpriced: totals.unpriced,
    parent_key: context.parent?.key ?? null,
    parent_tool_use_id: context.parent?.tool_use_id ?? null,
  };
  const diagnostics: DiagnosticRow[] = (context.diagnostics ?? []).map((d, i) => ({
    key: String(i),
    session_key: key,
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line ?? null,
    byte_offset: d.byteOffset ?? null,
    uuid: d.uuid ?? null,
  }));
  const tool_calls = toolCallRows(session, key, links, cap, wanted);
  return {
    sessions: [row],
    turns,
    atoms,
    blocks,
    tool_calls,
    usage_facts: usage_facts.filter((r) => wanted(r.turn_key)),
    subagents,
    diagnostics,
  };
}

/** Where an atom sits: the cells of its row that do not come from the atom itself. */
type AtomPlace = Pick<AtomRow, 'turn_key' | 'turn_index' | 'on_path' | 'subagent_of' | 'line' | 'byte_offset'>;

/** An atom's row, its cells in the order the rows have always had (the atom's, its place's, the session's); one object
 * literal: spreading the parts into a row cost a third of `sessionRows`. */
function atomRow(atom: Atom, place: AtomPlace, sessionKey: string, seq: number): AtomRow {
  const m = atom.message;
  const { author, peer } = normaliseAuthor(atom.author);
  return {
    key: atom.uuid,
    type: atom.type,
    subtype: atom.subtype ?? null,
    t: atom.t,
    parent_uuid: atom.parentUuid ?? null,
    message_id: m?.id ?? null,
    request_id: atom.request_id ?? null,
    model: m?.model ?? null,
    stop_reason: m?.stop_reason ?? null,
    fsid: atom.fsid ?? null,
    author,
    peer,
    turn_key: place.turn_key,
    turn_index: place.turn_index,
    on_path: place.on_path,
    subagent_of: place.subagent_of,
    line: place.line,
    byte_offset: place.byte_offset,
    session_key: sessionKey,
    seq,
  };
}

/** The rows of an atom's blocks; `tool_use` names are remembered in `toolNames` for the results after them. */
function blockRows(
  atom: Atom,
  sessionKey: string,
  turnKey: string | null,
  onPath: boolean,
  caps: { text: number; tool: number },
  toolNames: Map<string, string>,
): BlockRow[] {
  const author = normaliseAuthor(atom.author).author;
  return (atom.message?.content ?? []).map((block, index) => {
    const b = block as { type: string; id?: unknown; name?: unknown; tool_use_id?: unknown; is_error?: unknown };
    const useId =
      b.type === 'tool_use' && typeof b.id === 'string'
        ? b.id
        : b.type === 'tool_result' && typeof b.tool_use_id === 'string'
          ? b.tool_use_id
          : null;
    if (b.type === 'tool_use' && useId !== null && typeof b.name === 'string') toolNames.set(useId, b.name);
    const text = blockText(block);
    return {
      key: `${atom.uuid}:${index}`,
      session_key: sessionKey,
      atom_key: atom.uuid,
      turn_key: turnKey,
      index,
      type: b.type,
      role: roleOf(atom, block, atom.author),
      author,
      tool_name: useId === null ? null : (toolNames.get(useId) ?? null),
      tool_use_id: useId,
      text: capText(text, useId === null ? caps.text : caps.tool),
      text_length: text.length,
      is_error: b.type === 'tool_result' && b.is_error === true,
      on_path: onPath,
    };
  });
}

/** How a block is searched (`BlockRole`). */
function roleOf(atom: Atom, block: MessageBlock, author: Author | undefined): BlockRole {
  switch (block.type) {
    case 'text':
      if (atom.type === 'assistant') return 'assistant';
      return author === 'human' || author === 'sdk' || typeof author === 'object' ? 'typed' : 'system';
    case 'thinking':
      return 'thinking';
    case 'tool_use':
      return 'tool_use';
    case 'tool_result':
      return 'tool_result';
    default:
      return 'other';
  }
}
