/**
 * Builders for hand-written transcript fixtures in Claude Code's on-disk shapes
 * (transcript-format.md §4–§7), so each test states its graph in a few lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.ts';

/** The session id every fixture line carries unless told otherwise. */
export const SID = 'fixture-session';
/** The fixtures' clock: second 0. */
export const T0: number = Date.parse('2026-03-01T10:00:00.000Z');

/** An ISO timestamp `sec` seconds after `T0`. */
export function at(sec: number): string {
  return new Date(T0 + sec * 1000).toISOString();
}

type Fields = Record<string, unknown>;

function envelope(type: string, uuid: string, parent: string | null, sec: number, extra: Fields): Fields {
  return {
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/work/demo',
    sessionId: SID,
    version: '2.1.112',
    type,
    uuid,
    timestamp: at(sec),
    ...extra,
  };
}

/** A `user` line; string content stays a string, as Claude Code writes typed prompts. */
export function user(uuid: string, parent: string | null, content: unknown, sec: number, extra: Fields = {}): Fields {
  return envelope('user', uuid, parent, sec, { message: { role: 'user', content }, ...extra });
}

/** Options of an assistant line: its API response id, stop reason and usage. */
export interface AssistantOptions {
  mid: string;
  stop?: string | null;
  usage?: Fields;
  extra?: Fields;
}

/** An `assistant` line holding one content block of response `mid`. */
export function assistant(
  uuid: string,
  parent: string | null,
  block: Fields,
  sec: number,
  o: AssistantOptions,
): Fields {
  return envelope('assistant', uuid, parent, sec, {
    message: {
      id: o.mid,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [block],
      stop_reason: o.stop ?? null,
      stop_sequence: null,
      usage: o.usage ?? {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100,
      },
    },
    requestId: `req_${o.mid}`,
    ...o.extra,
  });
}

/** A `system` line of the given subtype. */
export function system(uuid: string, parent: string | null, subtype: string, sec: number, extra: Fields = {}): Fields {
  return envelope('system', uuid, parent, sec, { subtype, level: 'info', isMeta: false, ...extra });
}

/** A `compact_boundary` line: `parentUuid: null`, history through `logicalParentUuid`. */
export function compactBoundary(
  uuid: string,
  logicalParent: string | null,
  sec: number,
  metadata: Fields = {},
): Fields {
  return system(uuid, null, 'compact_boundary', sec, {
    content: 'Conversation compacted',
    logicalParentUuid: logicalParent,
    compactMetadata: { trigger: 'auto', preTokens: 150000, ...metadata },
  });
}

/** A `progress` line (≤2.1.80 chain member). */
export function progress(uuid: string, parent: string | null, sec: number): Fields {
  return envelope('progress', uuid, parent, sec, {
    data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
    toolUseID: 'toolu_x',
  });
}

/** Content blocks. */
export const text = (t: string): Fields => ({ type: 'text', text: t });
export const thinking = (t: string): Fields => ({ type: 'thinking', thinking: t, signature: 'sig' });
export const toolUse = (id: string, name: string, input: Fields = {}): Fields => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const toolResult = (id: string, content: string, isError = false): Fields => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  is_error: isError,
});

/**
 * Writes records (objects, or raw strings written verbatim) as a JSONL file in a fresh temp folder.
 * @returns the file's path
 */
export function writeJsonl(lines: Array<Fields | string>, name = `${SID}.jsonl`): string {
  const dir = tempDir('romp-test-');
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}
