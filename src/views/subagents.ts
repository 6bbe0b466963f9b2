import type { Session } from '../model/types.ts';
import { spawnCalls } from '../tree/spawn-calls.ts';

/** A `Task` / `Agent` tool call linked to the transcript of the subagent it spawned. */
export interface SubagentLink {
  tool_use_id: string;
  /** The subagent's transcript file. */
  path: string;
  /** How the link was made: the sidecar's `toolUseId` (2.1.2+), or the prompt the call sent. */
  by: 'meta' | 'prompt';
}

/** A subagent transcript found on disk, with what links it: its sidecar's `toolUseId`, and its first prompt (read when
 * needed). */
export interface SubagentFile {
  path: string;
  toolUseId: string | undefined;
  prompt: () => Promise<string>;
}

/**
 * Links the session's `Task` / `Agent` tool calls to subagent transcripts (transcript-format §2, §13):
 * through the sidecar `agent-<id>.meta.json`'s `toolUseId` (2.1.2+), else (2.0.x flat `agent-<id>.jsonl`)
 * by the prompt the call sent (the subagent's first user text equals the tool_use's `input.prompt`),
 * each call at most once. Inline sidechain lines of 1.0.x files are the parse's (`session.sidechains`,
 * `inlineSidechains`). The files come from `findSubagents`, which reads them.
 * @param session the parsed session
 * @param files the subagent transcripts found, in path order
 * @returns the links found, in tool-call order
 */
export async function linkSubagents(session: Session, files: SubagentFile[]): Promise<SubagentLink[]> {
  if (files.length === 0) return [];
  const calls = spawnCalls(session.turns);
  const links: SubagentLink[] = [];
  const taken = new Set<string>();
  for (const file of files) {
    const byMeta = file.toolUseId === undefined ? undefined : calls.find((c) => c.id === file.toolUseId);
    const prompt = byMeta === undefined ? await file.prompt() : '';
    const byPrompt =
      byMeta === undefined && prompt !== '' ? calls.find((c) => c.prompt === prompt && !taken.has(c.id)) : undefined;
    const call = byMeta ?? byPrompt;
    if (call === undefined) continue;
    taken.add(call.id);
    links.push({ tool_use_id: call.id, path: file.path, by: byMeta !== undefined ? 'meta' : 'prompt' });
  }
  const order = new Map(calls.map((c, i) => [c.id, i]));
  return links.sort((a, b) => (order.get(a.tool_use_id) ?? 0) - (order.get(b.tool_use_id) ?? 0));
}
