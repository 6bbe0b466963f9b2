import { readFile } from 'node:fs/promises';
import { sessionSubagents } from '../discover/list-claude-sessions.ts';
import type { Session } from '../model/types.ts';
import { readEdges } from '../discover/read-edges.ts';
import { parseSession, type ParseResult } from '../session/parse-session.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';

/** A `Task` / `Agent` tool call linked to the transcript of the subagent it spawned. */
export interface SubagentLink {
  tool_use_id: string;
  /** The subagent's transcript file. */
  path: string;
  /** How the link was made: the sidecar's `toolUseId` (2.1.2+), or the prompt the call sent. */
  by: 'meta' | 'prompt';
}

/** The tools that spawn a subagent. */
export const SPAWNERS: ReadonlySet<string> = new Set(['Task', 'Agent']);

/**
 * Links the session's `Task` / `Agent` tool calls to subagent transcripts (transcript-format §2, §13):
 * `<dir>/<fsid>/subagents/**\/agent-<id>.jsonl` through the sidecar `agent-<id>.meta.json`'s `toolUseId`,
 * and 2.0.x flat `<dir>/agent-<id>.jsonl` of the same session by the prompt the call sent (the
 * subagent's first user text equals the tool_use's `input.prompt`). Inline sidechain lines of 1.0.x
 * files stay in `session.records` (`isSidechain`). Parse a linked one with `parseSubagent`.
 * @param session the parsed session (its files name the folders to look in)
 * @returns the links found, in tool-call order
 */
export async function findSubagents(session: Session): Promise<SubagentLink[]> {
  const calls: Array<{ id: string; prompt: string }> = [];
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      for (const b of atom.message?.content ?? []) {
        const block = b as { type: string; id?: unknown; name?: unknown; input?: { prompt?: unknown } };
        if (block.type === 'tool_use' && typeof block.id === 'string' && SPAWNERS.has(String(block.name))) {
          calls.push({ id: block.id, prompt: typeof block.input?.prompt === 'string' ? block.input.prompt : '' });
        }
      }
    }
  }
  const candidates = new Set<string>();
  for (const file of session.files) {
    for (const agent of await sessionSubagents(file.path)) candidates.add(agent);
  }
  const links: SubagentLink[] = [];
  const taken = new Set<string>();
  for (const path of [...candidates].sort()) {
    const meta = await readMeta(path);
    const byMeta = typeof meta?.['toolUseId'] === 'string' ? calls.find((c) => c.id === meta['toolUseId']) : undefined;
    const prompt = byMeta === undefined ? await firstPrompt(path) : '';
    const byPrompt = byMeta === undefined && prompt !== '' ? calls.find((c) => c.prompt === prompt && !taken.has(c.id)) : undefined;
    const call = byMeta ?? byPrompt;
    if (call === undefined) continue;
    taken.add(call.id);
    links.push({ tool_use_id: call.id, path, by: byMeta !== undefined ? 'meta' : 'prompt' });
  }
  const order = new Map(calls.map((c, i) => [c.id, i]));
  return links.sort((a, b) => (order.get(a.tool_use_id) ?? 0) - (order.get(b.tool_use_id) ?? 0));
}

/**
 * Parses a linked subagent transcript as its own Session.
 * @param link the link
 * @returns the parse
 */
export function parseSubagent(link: SubagentLink): Promise<ParseResult> {
  return parseSession([link.path]);
}

async function readMeta(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(path.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function firstPrompt(path: string): Promise<string> {
  try {
    for (const line of (await readEdges(path, 64 * 1024, 0)).head) {
      const record = JSON.parse(line) as Record<string, unknown>;
      if (record['type'] !== 'user') continue;
      const text = normaliseMessage('user', record['message']).content.find((b) => b.type === 'text') as { text?: unknown } | undefined;
      if (typeof text?.text === 'string') return text.text;
    }
  } catch {
    // unreadable or not JSON: no prompt
  }
  return '';
}


