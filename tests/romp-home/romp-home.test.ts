import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listSessions, registerSession, resolveSession } from '../../src/romp-home/registry.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { assistant, text, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const end = (mid: string) => ({ mid, stop: 'end_turn' });

function home(): string {
  return tempDir('romp-home-');
}

function writeLog(dir: string, relative: string, rows: object[]): void {
  const path = join(dir, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

const conversation = [
  user('u1', null, 'one', 0),
  assistant('a1', 'u1', text('one'), 1, end('m1')),
  user('u2', 'a1', 'two', 100),
  assistant('a2', 'u2', text('two'), 101, end('m2')),
  user('u3', 'a2', 'three', 200),
  assistant('a3', 'u3', text('three'), 201, end('m3')),
];

test('registry: a resume file named like one already there is added as name~2; the same path twice is one file; unsafe ids are refused', async () => {
  const dir = home();
  const { recordResume, resolveSession } = await import('../../src/romp-home/registry.ts');
  const [a, b] = [writeJsonl(conversation.slice(0, 2), 'full.jsonl'), writeJsonl(conversation.slice(2), 'full.jsonl')];
  const registered = await registerSession(dir, {
    rompUuid: 'R',
    files: [
      { fsid: 'full', path: a },
      { fsid: 'full', path: b },
    ],
  });
  assert.deepEqual(
    registered.files.map((f) => f.fsid),
    ['full', 'full~2'],
  );
  await registerSession(dir, { rompUuid: 'R', files: [{ fsid: 'full', path: a }] });
  const entry = await recordResume(dir, 'R', 'full', b);
  assert.deepEqual(
    [entry.files.map((f) => [f.fsid, f.path]), entry.leafFsid],
    [
      [
        ['full', a],
        ['full~2', b],
      ],
      'full~2',
    ],
  );
  const again = await recordResume(dir, 'R', 'full', a);
  assert.deepEqual([again.files.length, again.leafFsid], [2, 'full']);
  await assert.rejects(recordResume(dir, '../escape', 'x', a), RangeError);
  assert.equal(await resolveSession(dir, '../sessions/R'), undefined);
});

test('a session of three resume files, read through the registry, equals the single-file case', async () => {
  const dir = home();
  const single = await parseSession([writeJsonl(conversation)], { rompUuid: 'R' });
  const files = [
    writeJsonl(conversation.slice(0, 2), 'f1.jsonl'),
    writeJsonl(conversation.slice(2, 4), 'f2.jsonl'),
    writeJsonl(conversation.slice(4), 'f3.jsonl'),
  ];
  await registerSession(dir, { rompUuid: 'R', files: [{ fsid: 'f1', path: files[0] as string }], name: 'Demo' });
  const { recordResume } = await import('../../src/romp-home/registry.ts');
  await recordResume(dir, 'R', 'f2', files[1] as string);
  const entry = await recordResume(dir, 'R', 'f3', files[2] as string);
  assert.deepEqual([entry.files.map((f) => f.fsid), entry.leafFsid], [['f1', 'f2', 'f3'], 'f3']);
  const viaRegistry = await parseSession([], { rompUuid: 'R', rompHome: dir });
  assert.deepEqual(
    viaRegistry.session.turns.map((t) => t.id),
    single.session.turns.map((t) => t.id),
  );
  assert.deepEqual(
    viaRegistry.session.turns.map((t) => t.atoms.map((a) => [a.uuid, a.fsid])),
    [
      [
        ['u1', 'f1'],
        ['a1', 'f1'],
      ],
      [
        ['u2', 'f2'],
        ['a2', 'f2'],
      ],
      [
        ['u3', 'f3'],
        ['a3', 'f3'],
      ],
    ],
  );
  assert.deepEqual([viaRegistry.session.name, viaRegistry.session.leafFsid], ['Demo', 'f3']);
});

test('postal messages: a known sender, an id missing from the log, a Stop-hook line without marker', async () => {
  const dir = home();
  await registerSession(dir, { rompUuid: 'SENDER-ROMP', files: [{ fsid: 'sender-anchor', path: '/nowhere.jsonl' }] });
  writeLog(dir, 'timeline/messages.jsonl', [
    { id: 'msg-1', from_id: 'sender-anchor', to_id: 'me', t: 1 },
    { id: 'msg-2', from_id: 'unregistered-sid', to_id: 'me', ts: '2026-03-01T10:00:00Z' },
  ]);
  const stopHook = (uuid: string, parent: string, body: string, sec: number) =>
    user(uuid, parent, `Stop hook feedback:\n${body}`, sec, { isMeta: true });
  const { session } = await parseSession(
    [
      writeJsonl([
        user('u1', null, 'start', 0, { promptSource: 'typed' }),
        assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
        user('r1', 'a1', [toolResult('t1', 'ok')], 2),
        user('p0', 'r1', 'mid-turn <!-- romp-msg-id: msg-2 -->', 3),
        assistant('a2', 'p0', text('done'), 4, end('m2')),
        stopHook('p1', 'a2', 'hello from a peer <!--   romp-msg-id:msg-1   -->', 5),
        assistant('a3', 'p1', text('answering the peer'), 6, end('m3')),
        stopHook('p2', 'a3', 'hello <!-- romp-msg-id: msg-404 -->', 7),
        assistant('a4', 'p2', text('ok'), 8, end('m4')),
        stopHook('h1', 'a4', 'lint failed', 9),
        assistant('a5', 'h1', text('fixing lint'), 10, end('m5')),
      ]),
    ],
    { rompHome: dir },
  );
  const authors = Object.fromEntries(
    session.turns
      .flatMap((t) => t.atoms)
      .filter((a) => a.type === 'user')
      .map((a) => [a.uuid, a.author ?? null]),
  );
  assert.deepEqual(authors, {
    u1: 'human',
    r1: null,
    p0: { peer: 'unregistered-sid' },
    p1: { peer: 'SENDER-ROMP' },
    p2: { peer: null },
    h1: 'system',
  });
  // the mid-turn postal line stays inside; after end_turn a postal line opens a turn, a plain Stop hook does not
  assert.deepEqual(
    session.turns.map((t) => t.trigger?.uuid ?? null),
    ['u1', 'p1', 'p2', null],
  );
});

test('idle spans: inside a turn, between turns, before the first turn, and one still open', async () => {
  const dir = home();
  const at = (sec: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + sec * 1000).toISOString();
  writeLog(dir, 'states/idle-demo.jsonl', [
    { ts: at(-50), state: 'idle' },
    { ts: at(-10), state: 'working' },
    { ts: at(0.5), state: 'idle' },
    { ts: at(0.7), state: 'working' },
    { ts: at(20), state: 'idle' },
    { ts: at(90), state: 'working' },
    { t: Date.parse(at(150)), state: 'idle' },
    { ts: at(160), state: 'mystery-state' },
    { ts: at(300), state: 'idle' },
  ]);
  const now = Date.parse(at(400));
  const { session } = await parseSession(
    [
      writeJsonl(
        [
          user('u1', null, 'one', 0),
          assistant('a1', 'u1', text('one'), 1, end('m1')),
          user('u2', 'a1', 'two', 100),
          assistant('a2', 'u2', text('two'), 101, end('m2')),
        ],
        'idle-demo.jsonl',
      ),
    ],
    { rompHome: dir, now },
  );
  const idle = (atoms: Array<{ type: string; t: number; end?: number }>) =>
    atoms.filter((a) => a.type === 'idle').map((a) => [a.t, a.end]);
  const ms = (sec: number) => Date.parse(at(sec));
  assert.deepEqual(idle(session.idle ?? []), [[ms(-50), ms(-10)]]);
  assert.deepEqual(idle(session.turns[0]?.atoms ?? []), [
    [ms(0.5), ms(0.7)],
    [ms(20), ms(90)],
  ]);
  assert.deepEqual(idle(session.turns[1]?.atoms ?? []), [
    [ms(150), ms(160)],
    [ms(300), now],
  ]);
  assert.deepEqual(
    session.turns[0]?.atoms.map((a) => a.type),
    ['user', 'idle', 'assistant', 'idle'],
  );
  assert.equal(session.turns[1]?.end, now);
});

test('two processes recording resumes of one session at once lose no update', async () => {
  const dir = home();
  const registry = fileURLToPath(new URL('../../src/romp-home/registry.js', import.meta.url));
  const script = `const { recordResume } = await import(${JSON.stringify(registry)}); const [dir, who] = process.argv.slice(1); for (let i = 0; i < 15; i++) await recordResume(dir, 'R', who + '-' + i, '/x/' + who + i + '.jsonl');`;
  const run = promisify(execFile);
  await Promise.all(
    ['a', 'b', 'c'].map((who) => run(process.execPath, ['--input-type=module', '-e', script, dir, who])),
  );
  const entry = await resolveSession(dir, 'R');
  assert.equal(entry?.files.length, 45);
  assert.deepEqual(
    (await listSessions(dir)).map((e) => e.rompUuid),
    ['R'],
  );
});
