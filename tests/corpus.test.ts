/**
 * Golden runs over the real transcripts in ../shared/corpus (read-only; nothing is copied here).
 * Skipped when the corpus is not beside the checkout.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Atom } from '../src/model/types.ts';
import { checkInvariants, checkLossless } from './helpers/invariants.ts';
import { readTranscript } from '../src/read/read-transcript.ts';
import { parseSession } from '../src/session/parse-session.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../shared/corpus/transcripts');
const present = existsSync(ROOT);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}
const files = present ? walk(ROOT).sort() : [];
/** Synthetic or edited files (corpus README): not evidence of Claude Code behaviour. */
const synthetic = (f: string): boolean =>
  /iansherr__claude-code-log\/[^/]+\.jsonl$/.test(relative(ROOT, f).replace(/\\/g, '/')) ||
  f.includes('workflow_basic') ||
  f.includes('jazzyalex__agent-sessions');

test('every corpus transcript parses in both views; every line is a record or a diagnostic; nothing is lost', { skip: !present }, async () => {
  assert.ok(files.length >= 100, `corpus has ${files.length} files`);
  for (const file of files) {
    const where = relative(ROOT, file);
    const read = await readTranscript(file);
    for (const view of ['full', 'context'] as const) {
      const { session } = await parseSession([file], { view });
      checkInvariants(session, `${where} (${view})`);
      checkLossless(read, session, `${where} (${view})`);
    }
  }
});

test('the glued lines of the corpus are split and reported', { skip: !present }, async () => {
  const glued: string[] = [];
  for (const file of files) {
    const read = await readTranscript(file);
    for (const d of read.diagnostics.filter((x) => x.code === 'GLUED_RECORDS')) {
      assert.equal(read.records.filter((r) => r.line === d.line).length, 2, `${d.file}:${d.line}`);
      glued.push(`${relative(ROOT, file)}:${d.line}`);
    }
  }
  // the lines holding `}{` between two records (transcript-format §17.1), found by grep
  assert.deepEqual(glued, ['entireio__cli/8c/fa910f8ef9/0/full.jsonl:115', 'entireio__cli/8c/fa910f8ef9/0/full.jsonl:241', 'entireio__cli/ee/cf21d297fe/0/full.jsonl:300']);
});

/**
 * The context view against the Agent SDK's own reader, `getSessionMessages`. Within one API response
 * the order of its split lines and tool results may differ (we order by timestamp; the SDK appends
 * recovered parallel lines after the walked one), so responses are compared as units.
 */
test('context view = the official reader getSessionMessages, response by response', { skip: !present }, async () => {
  const config = mkdtempSync(join(tmpdir(), 'romp-claude-'));
  process.env['CLAUDE_CONFIG_DIR'] = config;
  const { getSessionMessages } = await import('@anthropic-ai/claude-agent-sdk');
  let compared = 0;
  for (const [i, file] of files.entries()) {
    const where = relative(ROOT, file);
    if (synthetic(file) || /agent-[^/]*\.jsonl$/.test(file) || statSync(file).size === 0) continue;
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    mkdirSync(join(config, 'projects', 'p'), { recursive: true });
    copyFileSync(file, join(config, 'projects', 'p', `${id}.jsonl`));
    const theirs = (await getSessionMessages(id)).map((m) => m.uuid);
    const meta = new Set((await readTranscript(file)).records.filter((r) => r.record['isMeta'] === true).map((r) => r.record['uuid']));
    const atoms = (await parseSession([file], { view: 'context' })).session.turns
      .flatMap((t) => t.atoms)
      .filter((a) => (a.type === 'user' || a.type === 'assistant') && !meta.has(a.uuid) && !a.uuid.startsWith('queued:'));
    const key = responseKey(atoms);
    const ours = atoms.map((a) => a.uuid);
    assert.deepEqual(new Set(ours), new Set(theirs), `${where}: different messages`);
    assert.deepEqual(collapse(ours.map(key)), collapse(theirs.map(key)), `${where}: different order`);
    compared++;
  }
  assert.ok(compared >= 50, `compared ${compared} files`);
});

/** Maps an atom to its API response: assistant lines by message.id, tool results by their tool_use's. */
function responseKey(atoms: Atom[]): (uuid: string) => string {
  const toolOwner = new Map<string, string>();
  const byUuid = new Map(atoms.map((a) => [a.uuid, a]));
  for (const a of atoms) {
    for (const b of a.message?.content ?? []) {
      const id = (b as { id?: unknown }).id;
      if (a.type === 'assistant' && b.type === 'tool_use' && typeof id === 'string') toolOwner.set(id, a.message?.id ?? a.uuid);
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
