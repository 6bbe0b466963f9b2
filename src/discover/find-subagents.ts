import { knownBlocks } from '../model/known-blocks.ts';
import { readFile } from 'node:fs/promises';
import type { Session } from '../model/types.ts';
import { parseSession, type ParseResult } from '../session/parse-session.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
import { linkSubagents, type SubagentFile, type SubagentLink } from '../views/subagents.ts';
import { sessionSubagents } from './list-claude-sessions.ts';
import { readEdges } from './read-edges.ts';

/**
 * Links the session's `Task` / `Agent` tool calls to subagent transcripts on disk (transcript-format
 * §2, §13): finds `<dir>/<fsid>/subagents/**\/agent-<id>.jsonl` and 2.0.x flat `<dir>/agent-<id>.jsonl`
 * of the session's files, reads each one's sidecar `agent-<id>.meta.json` and first prompt, and links
 * them (`linkSubagents`). Parse a linked one with `parseSubagent`.
 * @param session the parsed session (its files name the folders to look in)
 * @returns the links found, in tool-call order
 */
export async function findSubagents(session: Session): Promise<SubagentLink[]> {
  const candidates = new Set<string>();
  for (const file of session.files) {
    for (const agent of await sessionSubagents(file.path)) candidates.add(agent);
  }
  const files: SubagentFile[] = [];
  for (const path of [...candidates].sort()) {
    const meta = await readMeta(path);
    const toolUseId = typeof meta?.['toolUseId'] === 'string' ? meta['toolUseId'] : undefined;
    files.push({ path, toolUseId, prompt: () => firstPrompt(path) });
  }
  return linkSubagents(session, files);
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
      for (const block of knownBlocks(normaliseMessage('user', record['message']).content))
        if (block.type === 'text') return block.text;
    }
  } catch {
    // unreadable or not JSON: no prompt
  }
  return '';
}
