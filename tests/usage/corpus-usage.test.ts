/**
 * `countUsage` over the whole corpus against an independent, plain computation of the same rules.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { countUsage } from '../../src/usage/count-usage.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../../shared/corpus/transcripts');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.jsonl') ? [p] : [];
  });
}

/** The rules of known-failures.md §7, written as plainly as possible. */
function plain(paths: string[]): Record<string, { input: number; output: number; read: number; responses: number }> {
  type Row = {
    mid: string;
    session: string;
    side: boolean;
    input: number;
    output: number;
    write: number;
    read: number;
  };
  const kept: Record<string, Row> = {};
  for (const path of paths) {
    for (const text of readFileSync(path, 'utf8').split('\n')) {
      let r: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        r = JSON.parse(text);
      } catch {
        continue; // glued lines hold no assistant usage in this corpus
      }
      if (
        r === null ||
        r.type !== 'assistant' ||
        typeof r.message?.id !== 'string' ||
        typeof r.message?.usage !== 'object' ||
        r.message.usage === null
      )
        continue;
      if (r.message.model === '<synthetic>') continue;
      const u = r.message.usage;
      const n = (x: unknown): number => (typeof x === 'number' ? x : 0);
      const row: Row = {
        mid: r.message.id,
        session: r.sessionId ?? '',
        side: r.isSidechain === true,
        input: n(u.input_tokens),
        output: n(u.output_tokens),
        write: n(u.cache_creation_input_tokens),
        read: n(u.cache_read_input_tokens),
      };
      const key = typeof r.requestId === 'string' ? `${row.mid} ${r.requestId}` : `${row.session} ${row.mid}`;
      const old = kept[key];
      const size = (x: Row): number => x.input + x.output + x.write + x.read;
      if (old === undefined) kept[key] = row;
      else {
        const side = old.side && row.side;
        if (size(row) > size(old)) kept[key] = { ...row, session: old.session };
        (kept[key] as Row).side = side;
      }
    }
  }
  const mains = new Set(
    Object.values(kept)
      .filter((r) => !r.side)
      .map((r) => r.mid),
  );
  const out: Record<string, { input: number; output: number; read: number; responses: number }> = {};
  for (const r of Object.values(kept)) {
    if (r.side && mains.has(r.mid)) continue;
    const s = (out[r.session] ??= { input: 0, output: 0, read: 0, responses: 0 });
    s.input += r.input;
    s.output += r.output;
    s.read += r.read;
    s.responses++;
  }
  return out;
}

test(
  'usage over the corpus agrees with a plain computation of the same rules, session by session',
  { skip: !existsSync(ROOT) },
  async () => {
    const paths = files(ROOT).sort();
    const report = await countUsage(paths, { timeZone: 'UTC' });
    const ours = Object.fromEntries(
      Object.entries(report.bySession).map(([k, t]) => [
        k,
        { input: t.input_tokens, output: t.output_tokens, read: t.cache_read_input_tokens, responses: t.responses },
      ]),
    );
    assert.deepEqual(ours, plain(paths));
    assert.ok(report.total.responses > 1000, `${report.total.responses} responses`);
  },
);

test('usage read by two worker threads equals usage read in one', { skip: !existsSync(ROOT) }, async () => {
  const paths = files(ROOT).sort();
  const one = await countUsage(paths, { timeZone: 'UTC' });
  const two = await countUsage(paths, { timeZone: 'UTC', workers: 2 });
  assert.deepEqual(
    [two.total, two.bySession, two.byDay, two.byModel],
    [one.total, one.bySession, one.byDay, one.byModel],
  );
});
