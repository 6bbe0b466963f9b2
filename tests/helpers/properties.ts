/**
 * Property suites over generated and mutated transcripts (fast-check), shared by `npm test` (a few
 * hundred cases) and `npm run fuzz -- --seconds N` (as many as fit).
 *
 * For every case: no exception escapes, each input line is one record or one diagnostic, atoms plus
 * record references equal the records read, the model's invariants hold in both views, and the usage
 * totals are whole non-negative counts. The mutations include issue 13's hostile shapes (prototype names
 * as values and keys, postal marker floods, long torn lines, bad token counts); one suite parses beside
 * a damaged romp home, one checks prototype names field by field (`prototype-keys.ts`).
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { timeFormat } from '../../src/cli/format-time.ts';
import { formatOutline } from '../../src/cli/format-outline.ts';
import { readTranscript } from '../../src/read/read-transcript.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { checkInvariants, checkLossless } from './invariants.ts';
import { checkPrototypeKey, PROTOTYPE_KEYS, setNthString } from './prototype-keys.ts';
import { countUsage } from '../../src/usage/count-usage.ts';
import { assistant, at, compactBoundary, system, text, toolResult, toolUse, user } from './transcript.ts';
import { tempDir } from './temp-dir.ts';

type Fields = Record<string, unknown>;
const OPS = [
  'turn',
  'parallel',
  'rewind',
  'compact',
  'sidechain',
  'meta',
  'interrupt',
  'null-stop',
  'absorbed',
] as const;
type Op = (typeof OPS)[number];

/** Builds a transcript (one JSON object per line) from a list of operations. */
export function buildTranscript(ops: Array<[Op, number]>): Fields[] {
  const lines: Fields[] = [];
  const uuids: string[] = [];
  let tip: string | null = null;
  let n = 0;
  let sec = 0;
  const id = (): string => {
    const u = `u${n++}`;
    uuids.push(u);
    return u;
  };
  const tick = (): number => (sec += 1);
  const answer = (parent: string, stop: string | null = 'end_turn'): string => {
    const a = id();
    lines.push(assistant(a, parent, text(`answer ${a}`), tick(), { mid: `m-${a}`, stop }));
    return a;
  };
  for (const [op, pick] of ops) {
    if (op === 'turn' || op === 'null-stop') {
      const u = id();
      lines.push(user(u, tip, `prompt ${u}`, tick(), { promptSource: 'typed' }));
      tip = answer(u, op === 'turn' ? 'end_turn' : null);
    } else if (op === 'parallel') {
      const [u, a1, a2, r1, r2] = [id(), id(), id(), id(), id()];
      lines.push(user(u, tip, 'look', tick()));
      lines.push(assistant(a1, u, toolUse(`t-${a1}`, 'Read'), tick(), { mid: `m-${u}`, stop: 'tool_use' }));
      lines.push(assistant(a2, a1, toolUse(`t-${a2}`, 'Grep'), tick(), { mid: `m-${u}`, stop: 'tool_use' }));
      lines.push(user(r1, a1, [toolResult(`t-${a1}`, 'one')], tick()));
      if (pick % 2 === 1) {
        // streaming tool execution: a later call hangs on the first call's result, off the walk
        const [a3, r3] = [id(), id()];
        lines.push(assistant(a3, r1, toolUse(`t-${a3}`, 'Read'), tick(), { mid: `m-${u}`, stop: 'tool_use' }));
        lines.push(user(r3, a3, [toolResult(`t-${a3}`, 'three')], tick()));
      }
      lines.push(user(r2, a2, [toolResult(`t-${a2}`, 'two')], tick()));
      tip = answer(r2);
    } else if (op === 'absorbed') {
      // a prompt typed mid-turn before 2.1.112: only enqueue … remove on disk, then the request it went with
      const old = { version: '2.1.96' };
      const [u, a1, a2, r] = [id(), id(), id(), id()];
      const q = (operation: string, content?: string): Fields => ({
        type: 'queue-operation',
        operation,
        timestamp: at(sec + 0.5),
        sessionId: 'fixture-session',
        ...(content === undefined ? {} : { content }),
      });
      lines.push(user(u, tip, `job ${u}`, tick(), old));
      lines.push(assistant(a1, u, text('starting'), tick(), { mid: `m-${u}`, stop: 'tool_use', extra: old }));
      lines.push(q('enqueue', `also ${u}`));
      if (pick % 2 === 0) lines.push(q('remove')); // written before the response's last line and its result
      lines.push(
        assistant(a2, a1, toolUse(`t-${a2}`, 'Bash'), tick(), { mid: `m-${u}`, stop: 'tool_use', extra: old }),
      );
      lines.push(user(r, a2, [toolResult(`t-${a2}`, 'ok')], tick(), old));
      if (pick % 2 === 1) lines.push(q('remove'));
      tip = answer(r);
    } else if (op === 'rewind') {
      const parent = uuids.length === 0 ? null : (uuids[pick % uuids.length] ?? null);
      const u = id();
      lines.push(user(u, parent, `rewritten ${u}`, tick()));
      tip = answer(u);
    } else if (op === 'compact') {
      const [b, s] = [id(), id()];
      lines.push(compactBoundary(b, tip, tick()));
      lines.push(user(s, b, 'This session is being continued…', tick(), { isCompactSummary: true }));
      tip = s;
    } else if (op === 'sidechain') {
      const [u, a] = [id(), id()];
      lines.push(user(u, null, 'subagent prompt', tick(), { isSidechain: true }));
      lines.push(
        assistant(a, u, text('subagent answer'), tick(), {
          mid: `m-${a}`,
          stop: 'end_turn',
          extra: { isSidechain: true },
        }),
      );
    } else if (op === 'meta') {
      const kinds: Fields[] = [
        { type: 'file-history-snapshot', messageId: tip, snapshot: {}, isSnapshotUpdate: false },
        { type: 'custom-title', customTitle: `title ${pick}`, sessionId: 'fixture-session' },
        { type: 'queue-operation', operation: 'enqueue', content: 'later', sessionId: 'fixture-session' },
        system(id(), tip, 'turn_duration', tick(), { durationMs: 10 }),
      ];
      lines.push(kinds[pick % kinds.length] as Fields);
    } else {
      const [u, a, r, i] = [id(), id(), id(), id()];
      lines.push(user(u, tip, 'long job', tick()));
      lines.push(assistant(a, u, toolUse(`t-${a}`, 'Bash'), tick(), { mid: `m-${a}`, stop: 'tool_use' }));
      lines.push(user(r, a, [toolResult(`t-${a}`, 'rejected', true)], tick()));
      lines.push(user(i, r, [{ type: 'text', text: '[Request interrupted by user for tool use]' }], tick()));
      tip = i;
    }
  }
  return lines;
}

/** Valid transcripts: rewinds, compactions, parallel tools, sidechains, interrupts, metadata. */
export const transcriptArb: fc.Arbitrary<Fields[]> = fc
  .array(fc.tuple(fc.constantFrom(...OPS), fc.nat()), { minLength: 1, maxLength: 30 })
  .map(buildTranscript);

const MUTATIONS = [
  'flip',
  'cut',
  'duplicate',
  'swap',
  'glue',
  'nul',
  'bad-utf8',
  'deep',
  'huge',
  'self-loop',
  'cycle',
  'repeat-uuid',
  'unknown-type',
  'no-timestamp',
  'bad-timestamp',
  'number-timestamp',
  'blank',
  'bom',
  'crlf',
  'odd-content',
  'odd-usage',
  'odd-metadata',
  'odd-message',
  // hostile shapes (issue 13): prototype names as values and keys, postal marker floods, long torn lines, bad token
  // counts
  'proto-value',
  'proto-key',
  'marker-flood',
  'long-torn',
  'bad-usage',
] as const;
type Mutation = [(typeof MUTATIONS)[number], number, number];

/** Applies mutations to a transcript's lines; returns the bytes of the file. */
export function mutate(records: Array<Fields | string>, mutations: Mutation[]): Buffer {
  const lines = records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
  const at = (k: number): number => (lines.length === 0 ? 0 : k % lines.length);
  const edit = (i: number, change: (r: Fields) => void): void => {
    try {
      const r = JSON.parse(lines[i] ?? '') as Fields;
      change(r);
      lines[i] = JSON.stringify(r);
    } catch {
      // not an object line: left as it is
    }
  };
  let badBytesAt = -1;
  for (const [kind, a, b] of mutations) {
    const i = at(a);
    const line = lines[i] ?? '';
    switch (kind) {
      case 'flip':
        lines[i] =
          line.slice(0, b % (line.length + 1)) +
          String.fromCharCode(32 + (a % 90)) +
          line.slice((b % (line.length + 1)) + 1);
        break;
      case 'cut':
        lines[i] = line.slice(0, b % (line.length + 1));
        break;
      case 'duplicate':
        lines.splice(i, 0, line);
        break;
      case 'swap':
        [lines[i], lines[at(b)]] = [lines[at(b)] ?? '', line];
        break;
      case 'glue':
        if (i + 1 < lines.length) lines.splice(i, 2, line + (lines[i + 1] ?? ''));
        break;
      case 'nul':
        lines[i] =
          line.slice(0, b % (line.length + 1)) + '\u0000'.repeat(1 + (a % 50)) + line.slice(b % (line.length + 1));
        break;
      case 'bad-utf8':
        badBytesAt = i;
        break;
      case 'deep':
        lines.splice(
          i,
          0,
          `{"type":"user","uuid":"deep${a}","parentUuid":null,"message":{"role":"user","content":${'['.repeat(300 + (b % 3000))}1${']'.repeat(300 + (b % 3000))}}}`,
        );
        break;
      case 'huge':
        lines.splice(i, 0, JSON.stringify(user(`huge${a}`, null, 'x'.repeat(200_000 + (b % 1000)), 1)));
        break;
      case 'self-loop':
        edit(i, (r) => {
          r['parentUuid'] = r['uuid'];
        });
        break;
      case 'cycle': {
        const u = uuidOf(lines[at(b)]);
        edit(i, (r) => {
          r['parentUuid'] = u ?? null;
        });
        break;
      }
      case 'repeat-uuid': {
        const u = uuidOf(lines[at(b)]);
        edit(i, (r) => {
          if (u !== undefined) r['uuid'] = u;
        });
        break;
      }
      case 'unknown-type':
        edit(i, (r) => {
          r['type'] = `from-the-future-${a % 3}`;
          r['brandNewField'] = { nested: [b] };
        });
        break;
      case 'no-timestamp':
        edit(i, (r) => {
          delete r['timestamp'];
        });
        break;
      case 'bad-timestamp':
        edit(i, (r) => {
          r['timestamp'] = ['yesterday', '2026-13-45T99:99:99Z', '', 'Tue, 03 Mar 2026 10:00:00 GMT'][b % 4];
        });
        break;
      case 'number-timestamp':
        edit(i, (r) => {
          r['timestamp'] = [Date.now(), 1e20, -5, 0][b % 4];
        });
        break;
      case 'blank':
        lines.splice(i, 0, ' '.repeat(b % 3));
        break;
      case 'bom':
        lines[i] = `\uFEFF${line}`;
        break;
      case 'crlf':
        lines[i] = `${line}\r`;
        break;
      case 'odd-content':
        edit(i, (r) => {
          const m = r['message'] as Fields | undefined;
          if (m) m['content'] = [[null], 5, 'text', [{ type: 7 }, null, [1]], {}][b % 5];
        });
        break;
      case 'odd-usage':
        edit(i, (r) => {
          const m = r['message'] as Fields | undefined;
          if (m) m['usage'] = [null, 'lots', { input_tokens: '5', output_tokens: null }, []][b % 4];
        });
        break;
      case 'odd-metadata':
        edit(i, (r) => {
          r['compactMetadata'] = [
            null,
            'x',
            { preservedSegment: null, preservedMessages: null },
            { preservedMessages: { anchorUuid: 'u0', uuids: [1, null] } },
          ][b % 4];
          r['subtype'] = 'compact_boundary';
          r['type'] = 'system';
        });
        break;
      case 'odd-message':
        edit(i, (r) => {
          r['message'] = [null, 'text', 42, [], { role: 'assistant', content: 'plain' }][b % 5];
        });
        break;
      case 'proto-value':
        edit(i, (r) => {
          setNthString(r, b, PROTOTYPE_KEYS[a % PROTOTYPE_KEYS.length] as string);
        });
        break;
      case 'proto-key':
        edit(i, (r) => {
          for (const target of [r, r['message']])
            if (typeof target === 'object' && target !== null)
              Object.defineProperty(target, PROTOTYPE_KEYS[(a + b) % PROTOTYPE_KEYS.length] as string, {
                value: { polluted: b },
                enumerable: true,
                writable: true,
                configurable: true,
              });
        });
        break;
      case 'marker-flood':
        lines.splice(i, 0, JSON.stringify(user(`flood${a}`, null, '<!--romp-msg-id:'.repeat(1000 + (b % 10_000)), 1)));
        break;
      case 'long-torn':
        lines[i] =
          `{"parentUuid":"torn","type":"user","message":{"content":"${'{"type":{"parentUuid":'.repeat(1000 + (b % 10_000))}${line}`;
        break;
      case 'bad-usage':
        edit(i, (r) => {
          const m = r['message'] as Fields | undefined;
          if (m)
            m['usage'] = {
              input_tokens: [-5, '7', 1e300, 2.5][b % 4],
              output_tokens: [1e300, -1, '3', 0.5][a % 4],
              cache_read_input_tokens: -0,
            };
        });
        break;
    }
  }
  const parts = lines.map((l, i) =>
    i === badBytesAt
      ? Buffer.concat([Buffer.from(l.slice(0, 10)), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(l.slice(10))])
      : Buffer.from(l),
  );
  return Buffer.concat(parts.flatMap((p) => [p, Buffer.from('\n')]));
}

function uuidOf(line: string | undefined): string | undefined {
  try {
    const u = (JSON.parse(line ?? '') as Fields)['uuid'];
    return typeof u === 'string' ? u : undefined;
  } catch {
    return undefined;
  }
}

const mutationsArb = fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat(), fc.nat()), {
  minLength: 1,
  maxLength: 6,
});

/** Bodies of registry entries and postal logs a damaged romp home may hold. */
const DAMAGED = [
  'null',
  '{}',
  '[]',
  '{"files":null}',
  '{"rompUuid":',
  '{"rompUuid":"fuzzed","name":1}',
  '{"rompUuid":"fuzzed","name":"","dir":"","color":"","files":[null],"leafFsid":""}',
  '\u0000\u0000',
  '"__proto__"',
  '{"__proto__":{"files":[]}}',
];

/** A romp home whose registry (the fuzzed session's own entry among them) and postal log hold the bodies picked. */
function damagedHome(picks: number[]): string {
  const home = tempDir('romp-prop-home-');
  mkdirSync(join(home, 'sessions'));
  mkdirSync(join(home, 'timeline'));
  picks.forEach((p, i) =>
    writeFileSync(
      join(home, 'sessions', `${i === 0 ? 'fuzzed' : `e${i}`}.json`),
      DAMAGED[p % DAMAGED.length] as string,
    ),
  );
  writeFileSync(join(home, 'timeline', 'messages.jsonl'), picks.map((p) => DAMAGED[p % DAMAGED.length]).join('\n'));
  return home;
}

/** Writes the bytes as one file (or two, split at `split`) and checks every promise of the parser. */
export async function checkParse(bytes: Buffer, split?: number, rompHome?: string): Promise<void> {
  const dir = tempDir('romp-prop-');
  const newline = split === undefined ? -1 : bytes.indexOf(10, split % Math.max(1, bytes.length));
  const cut = newline === -1 ? bytes.length : newline + 1;
  const files = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  writeFileSync(files[0] as string, bytes.subarray(0, cut));
  writeFileSync(files[1] as string, bytes.subarray(cut));
  const paths = cut === bytes.length ? [files[0] as string] : files;
  // read as parseSession reads: a mutated byte inside a skipped value is not checked for JSON grammar
  // (docs/diagnostics.md), so such a line is a record there where a whole parse calls it INVALID_JSON
  const reads = await Promise.all(paths.map((p) => readTranscript(p, { skipUnread: true })));
  for (const view of ['full', 'context'] as const) {
    const { session } = await parseSession(paths, {
      view,
      ...(rompHome === undefined ? {} : { rompHome, rompUuid: 'fuzzed' }),
    });
    checkInvariants(session, `${view} view`, false);
    formatOutline(session, timeFormat('UTC'));
    if (paths.length === 1 && reads[0] !== undefined) checkLossless(reads[0], session, `${view} view`);
    else {
      const read = reads.reduce((n, r) => n + r.records.length, 0);
      const atoms = session.turns.reduce((n, t) => n + t.atoms.filter((a) => !a.uuid.startsWith('queued:')).length, 0);
      if (atoms + session.records.length !== read)
        throw new Error(`${view} view: ${atoms} atoms + ${session.records.length} records != ${read} read`);
    }
  }
  const usage = await countUsage(paths);
  for (const [name, n] of Object.entries(usage.total)) {
    if (
      typeof n === 'number' &&
      !(Number.isSafeInteger(n) && n >= 0) &&
      !(name === 'cost_usd' && Number.isFinite(n) && n >= 0)
    )
      throw new Error(`usage total ${name} is ${n}`);
  }
}

const CORPUS = resolve(fileURLToPath(import.meta.url), '../../../../../shared/corpus/transcripts');

/** Small real transcripts to mutate (under 200 KB, so a case stays fast). */
export function corpusSamples(): Buffer[] {
  const out: Buffer[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (name.endsWith('.jsonl') && st.size > 0 && st.size < 200_000) out.push(readFileSync(path));
    }
  };
  walk(CORPUS);
  return out;
}

/** The property suites, by name. */
export function properties(
  samples: Buffer[],
): Array<{ name: string; property: fc.IAsyncPropertyWithHooks<unknown[]>; share?: number }> {
  const list: Array<{ name: string; property: fc.IAsyncPropertyWithHooks<unknown[]>; share?: number }> = [
    {
      name: 'generated transcripts parse with every invariant, in one file or split in two',
      property: fc.asyncProperty(transcriptArb, fc.option(fc.nat(), { nil: undefined }), async (records, split) => {
        await checkParse(mutate(records, []), split);
      }),
    },
    {
      name: 'mutated generated transcripts never throw and lose nothing',
      property: fc.asyncProperty(
        transcriptArb,
        mutationsArb,
        fc.option(fc.nat(), { nil: undefined }),
        async (records, mutations, split) => {
          await checkParse(mutate(records, mutations), split);
        },
      ),
    },
    {
      name: 'a prototype name in any string field pollutes nothing and reads as a plain word',
      property: fc.asyncProperty(
        transcriptArb,
        fc.nat(),
        fc.constantFrom(...PROTOTYPE_KEYS),
        async (records, pick, key) => {
          await checkPrototypeKey(records, pick, key);
        },
      ),
      share: 0.2, // five parses a case: a fifth of the runs in `npm test`
    },
    {
      name: 'mutated generated transcripts parse beside a damaged romp home',
      property: fc.asyncProperty(
        transcriptArb,
        mutationsArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        async (records, mutations, picks) => {
          await checkParse(mutate(records, mutations), undefined, damagedHome(picks));
        },
      ),
      share: 0.2,
    },
  ];
  if (samples.length > 0) {
    list.push({
      name: 'mutated corpus transcripts never throw and lose nothing',
      property: fc.asyncProperty(fc.nat({ max: samples.length - 1 }), mutationsArb, async (i, mutations) => {
        const lines = (samples[i] as Buffer)
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '');
        await checkParse(mutate(lines, mutations));
      }),
    });
  }
  return list;
}
