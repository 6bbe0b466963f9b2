/**
 * The context view against the Agent SDK's own reader, `getSessionMessages`
 * (`@anthropic-ai/claude-agent-sdk`, a dev dependency), response by response.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import type { Atom } from '../../src/model/types.ts';
import { readTranscript } from '../../src/read/read-transcript.ts';
import { buildSessionState } from '../../src/session/build-session.ts';
import { collectFiles } from '../../src/session/collect-files.ts';
import { tempDir } from './temp-dir.ts';

let projects: string | undefined;
let copies = 0;

/**
 * Reads `file` with `getSessionMessages` (from a copy in a Claude config folder of its own) and with
 * romp's `context` view, and asserts that both hold the same user and assistant lines (meta lines and
 * generated prompts left out), in the same order of API responses. Within one response the order may
 * differ: romp, like the current CLI, puts a response's parallel lines back in file position, the SDK
 * reader puts the calls first, then the results, each by timestamp.
 *
 * One documented difference is encoded: at a parent that was never written, with a line 0–5 s earlier
 * to stand in for it, the CLI (and romp, `PHANTOM_PARENT`) resumes through, while the SDK reader's walk
 * stops (it has no timestamp fallback; checked against the CLI 2.1.332's own resumed request). There,
 * the SDK's list is expected to be romp's from the last such line on.
 *
 * @param file a transcript (not a subagent's)
 * @param where the name to report
 * @returns the number of lines compared
 */
export async function assertOfficialReader(file: string, where: string): Promise<number> {
  if (projects === undefined) {
    const config = tempDir('romp-claude-');
    process.env['CLAUDE_CONFIG_DIR'] = config;
    projects = join(config, 'projects', 'p');
    mkdirSync(projects, { recursive: true });
  }
  const { getSessionMessages } = await import('@anthropic-ai/claude-agent-sdk');
  const id = `00000000-0000-4000-8000-${String(copies++).padStart(12, '0')}`;
  copyFileSync(file, join(projects, `${id}.jsonl`));
  const theirs = (await getSessionMessages(id)).map((m) => m.uuid);

  const diagnostics: Diagnostic[] = [];
  const on = (d: Diagnostic): void => void diagnostics.push(d);
  const state = buildSessionState(await collectFiles([file], on), { view: 'context' }, on);
  const meta = new Set(
    (await readTranscript(file)).records.filter((r) => r.record['isMeta'] === true).map((r) => r.record['uuid']),
  );
  const atoms = state.session.turns
    .flatMap((t) => t.atoms)
    .filter((a) => (a.type === 'user' || a.type === 'assistant') && !meta.has(a.uuid) && !a.uuid.startsWith('queued:'));
  // the SDK's walk stops at the last time-bridged line met from the leaf
  const bridged = new Set(diagnostics.filter((d) => d.code === 'PHANTOM_PARENT').map((d) => d.uuid));
  const cut = state.path.entries.findLastIndex((e) => bridged.has(e.uuid));
  const after = new Set(state.path.entries.slice(Math.max(cut, 0)).map((e) => e.uuid));
  const ours = atoms.map((a) => a.uuid).filter((u) => after.has(u));
  const key = responseKey(atoms);
  assert.deepEqual(new Set(ours), new Set(theirs), `${where}: different messages`);
  assert.deepEqual(collapse(ours.map(key)), collapse(theirs.map(key)), `${where}: different order`);
  return ours.length;
}

/** Maps an atom to its API response: assistant lines by message.id, tool results by their tool_use's. */
function responseKey(atoms: Atom[]): (uuid: string) => string {
  const toolOwner = new Map<string, string>();
  const byUuid = new Map(atoms.map((a) => [a.uuid, a]));
  for (const a of atoms) {
    for (const b of a.message?.content ?? []) {
      const id = (b as { id?: unknown }).id;
      if (a.type === 'assistant' && b.type === 'tool_use' && typeof id === 'string')
        toolOwner.set(id, a.message?.id ?? a.uuid);
    }
  }
  return (uuid) => {
    const a = byUuid.get(uuid);
    if (a?.type === 'assistant') return a.message?.id ?? uuid;
    const result = a?.message?.content.find((b) => b.type === 'tool_result') as { tool_use_id?: string } | undefined;
    return (result?.tool_use_id !== undefined ? toolOwner.get(result.tool_use_id) : undefined) ?? uuid;
  };
}

function collapse(keys: string[]): string[] {
  return keys.filter((k, i) => k !== keys[i - 1]);
}
