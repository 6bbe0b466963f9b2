import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SessionWatcher } from '../../src/live/session-watcher.ts';
import { recordResume, registerSession } from '../../src/romp-home/registry.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { assistant, compactBoundary, T0, text, toolResult, toolUse, user } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const end = (mid: string) => ({ mid, stop: 'end_turn' });
const jsonl = (...records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
function file(name = 'live.jsonl'): string {
  const path = join(tempDir('romp-watch-'), name);
  writeFileSync(path, '');
  return path;
}
const uuids = (w: SessionWatcher): string[][] => (w.session?.turns ?? []).map((t) => t.atoms.map((a) => a.uuid));

test('a line completed across two writes: held back, no diagnostic, then one atom', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  const line = JSON.stringify(user('u1', null, 'hello', 0));
  appendFileSync(path, line.slice(0, 25));
  const first = await w.update();
  assert.deepEqual([first.session.turns.length, first.diagnostics, first.changed], [0, [], []]);
  appendFileSync(path, `${line.slice(25)}\n`);
  const second = await w.update();
  assert.deepEqual(uuids(w), [['u1']]);
  assert.deepEqual(second.changed, [second.session.turns[0]?.id]);
});

test('appends that extend the path change only the last turn; a new prompt adds one', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  const first = (await w.update()).session.turns[0]?.id;
  appendFileSync(path, jsonl(user('u2', 'a1', 'two', 5)));
  const u = await w.update();
  assert.deepEqual(uuids(w), [['u1', 'a1'], ['u2']]);
  assert.deepEqual(u.changed, [u.session.turns[1]?.id]);
  assert.equal(u.session.turns[0]?.id, first);
});

test('a call arriving live for a response whose lines were put back moves them after it, as a one-shot parse', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  const m1 = { mid: 'm1', stop: 'tool_use' };
  appendFileSync(
    path,
    jsonl(
      user('u1', null, 'look', 0),
      assistant('a1', 'u1', toolUse('t1', 'Read'), 1, m1),
      assistant('a2', 'a1', toolUse('t2', 'Grep'), 1.1, m1),
      user('r1', 'a1', [toolResult('t1', 'one')], 2),
    ),
  );
  await w.update();
  assert.deepEqual(uuids(w), [['u1', 'a1', 'a2', 'r1']]); // a2 put back after a1, m1's last path line
  // streaming tool execution: a third call hangs on r1, the leaf; a2 now goes after it
  appendFileSync(path, jsonl(assistant('a3', 'r1', toolUse('t3', 'Read'), 3, m1)));
  await w.update();
  assert.deepEqual(uuids(w), [['u1', 'a1', 'r1', 'a3', 'a2']]);
  assert.deepEqual(w.session?.turns, (await parseSession([path])).session.turns);
});

test('a rewind arriving live drops the abandoned branch', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  appendFileSync(
    path,
    jsonl(
      user('u1', null, 'one', 0),
      assistant('a1', 'u1', text('one'), 1, end('m1')),
      user('u2', 'a1', 'abandoned', 2),
      assistant('a2', 'u2', text('x'), 3, end('m2')),
    ),
  );
  await w.update();
  appendFileSync(path, jsonl(user('u3', 'a1', 'rewritten', 60), assistant('a3', 'u3', text('y'), 61, end('m3'))));
  const u = await w.update();
  assert.deepEqual(uuids(w), [
    ['u1', 'a1'],
    ['u3', 'a3'],
  ]);
  assert.equal(u.changed.length, 2); // the abandoned turn is gone, the new one is there
});

test('a compaction arriving live is stitched to the history before it', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  await w.update();
  appendFileSync(
    path,
    jsonl(
      compactBoundary('b', 'a1', 10),
      user('s', 'b', 'summary', 10, { isCompactSummary: true }),
      user('u2', 's', 'two', 20),
    ),
  );
  await w.update();
  assert.deepEqual(uuids(w), [['u1', 'a1', 'b', 's'], ['u2']]);
});

test('a truncated or replaced file is read again from the start, with FILE_REPLACED', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  await w.update();
  writeFileSync(path, jsonl(user('n1', null, 'new', 0)));
  const u = await w.update();
  assert.deepEqual(
    u.diagnostics.map((d) => d.code),
    ['FILE_REPLACED'],
  );
  assert.deepEqual(uuids(w), [['n1']]);
});

test('a resume file registered later is followed; a subagent file appearing is reported', async () => {
  const home = tempDir('romp-watch-home-');
  const first = file('s1.jsonl');
  appendFileSync(first, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  await registerSession(home, { rompUuid: 'R', files: [{ fsid: 's1', path: first }] });
  const w = new SessionWatcher([], { rompUuid: 'R', rompHome: home });
  await w.update();
  const second = join(first, '..', 's2.jsonl');
  writeFileSync(second, jsonl(user('u2', 'a1', 'two', 100), assistant('a2', 'u2', text('two'), 101, end('m2'))));
  await recordResume(home, 'R', 's2', second);
  const agentDir = join(first, '..', 's1', 'subagents');
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, 'agent-a1.jsonl'), jsonl(user('x', null, 'explore', 50, { isSidechain: true })));
  const u = await w.update();
  assert.deepEqual(uuids(w), [
    ['u1', 'a1'],
    ['u2', 'a2'],
  ]);
  assert.deepEqual(u.newSubagents, [join(agentDir, 'agent-a1.jsonl')]);
  assert.deepEqual((await w.update()).newSubagents, []);
});

test('watchSession yields the first state, then each change as the file grows, until aborted', async () => {
  const { watchSession } = await import('../../src/live/watch-session.ts');
  const path = file();
  appendFileSync(path, jsonl(user('u1', null, 'one', 0)));
  const controller = new AbortController();
  const seen: string[][][] = [];
  for await (const update of watchSession([path], { signal: controller.signal, debounceMs: 10 })) {
    seen.push(update.session.turns.map((t) => t.atoms.map((a) => a.uuid)));
    if (seen.length === 1) appendFileSync(path, jsonl(assistant('a1', 'u1', text('one'), 1, end('m1'))));
    if (seen.length === 2) controller.abort();
  }
  assert.deepEqual(seen, [[['u1']], [['u1', 'a1']]]);
});

test('watchSession goes on when another entry of the folder cannot be watched (a symlink loop), polling or not', async () => {
  const { watchSession } = await import('../../src/live/watch-session.ts');
  const { symlinkSync } = await import('node:fs');
  for (const poll of [false, true]) {
    const path = file();
    symlinkSync('loop.jsonl', join(path, '..', 'loop.jsonl'));
    appendFileSync(path, jsonl(user('u1', null, 'one', 0)));
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const update of watchSession([path], { signal: controller.signal, debounceMs: 10, poll })) {
      seen.push(update.session.turns[0]?.atoms.length ?? 0);
      if (seen.length === 1) appendFileSync(path, jsonl(assistant('a1', 'u1', text('one'), 1, end('m1'))));
      if (seen.length === 2) controller.abort();
    }
    assert.deepEqual(seen, [1, 2], `poll: ${poll}`);
  }
});

test('with a romp home, each snapshot carries the idle atoms parseSession gives; a span that closes is a change', async () => {
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const home = tempDir('romp-idle-');
  const path = file('idle-live.jsonl');
  const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  mkdirSync(join(home, 'states'));
  const log = join(home, 'states', 'idle-live.jsonl');
  appendFileSync(log, jsonl({ ts: at(2), state: 'idle' }));
  const options = { rompHome: home, now: T0 + 60_000 };
  const watcher = new SessionWatcher([path], options);
  const first = await watcher.update();
  assert.deepEqual(first.session, (await parseSession([path], options)).session);
  const idle = () => watcher.session?.turns[0]?.atoms.filter((a) => a.type === 'idle').map((a) => [a.t, a.end]);
  assert.deepEqual(idle(), [[T0 + 2000, T0 + 60_000]]);
  appendFileSync(log, jsonl({ ts: at(30), state: 'working' }));
  const closed = await watcher.update();
  assert.deepEqual([closed.changed, idle()], [[first.session.turns[0]?.id], [[T0 + 2000, T0 + 30_000]]]);
  appendFileSync(path, jsonl(user('u2', 'a1', 'two', 40)));
  const grown = await watcher.update();
  assert.deepEqual(grown.session, (await parseSession([path], options)).session);
  assert.deepEqual(grown.changed, [grown.session.turns[1]?.id]);
});

test('watchSession with a romp home: a state log that changes is an update, and a missing states folder does not stall the watch', async () => {
  const { watchSession } = await import('../../src/live/watch-session.ts');
  for (const withStates of [true, false]) {
    const home = tempDir('romp-idle-watch-');
    const path = file('idle-watch.jsonl');
    appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
    const log = join(home, 'states', 'idle-watch.jsonl');
    if (withStates) {
      mkdirSync(join(home, 'states'));
      appendFileSync(log, jsonl({ ts: new Date(T0 + 2000).toISOString(), state: 'idle' }));
    }
    const controller = new AbortController();
    const ends: Array<number | undefined> = [];
    for await (const update of watchSession([path], {
      rompHome: home,
      now: T0 + 60_000,
      signal: controller.signal,
      debounceMs: 10,
    })) {
      ends.push(update.session.turns[0]?.atoms.find((a) => a.type === 'idle')?.end);
      if (ends.length === 1) {
        if (withStates) appendFileSync(log, jsonl({ ts: new Date(T0 + 30_000).toISOString(), state: 'working' }));
        else appendFileSync(path, jsonl(user('u2', 'a1', 'two', 40)));
      }
      if (ends.length === 2) controller.abort();
    }
    assert.deepEqual(ends, withStates ? [T0 + 60_000, T0 + 30_000] : [undefined, undefined]);
  }
});

test('with a romp home, a postal line appended live gets the sender parseSession gives, also when the log entry is newer than the watch', async () => {
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const home = tempDir('romp-postal-live-');
  await registerSession(home, { rompUuid: 'SENDER', files: [{ fsid: 'sender-anchor', path: '/nowhere.jsonl' }] });
  mkdirSync(join(home, 'timeline'));
  const log = join(home, 'timeline', 'messages.jsonl');
  appendFileSync(log, jsonl({ id: 'msg-1', from_id: 'sender-anchor', to_id: 'me', t: 1 }));
  const path = file('postal-live.jsonl');
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  const watcher = new SessionWatcher([path], { rompHome: home });
  await watcher.update();
  const hook = (uuid: string, parent: string, id: string, sec: number) =>
    user(uuid, parent, `Stop hook feedback:\nhi <!-- romp-msg-id: ${id} -->`, sec, { isMeta: true });
  appendFileSync(path, jsonl(hook('p1', 'a1', 'msg-1', 2), assistant('a2', 'p1', text('two'), 3, end('m2'))));
  await watcher.update();
  appendFileSync(log, jsonl({ id: 'msg-2', from_id: 'sender-anchor', to_id: 'me', t: 2 }));
  appendFileSync(path, jsonl(hook('p2', 'a2', 'msg-2', 4)));
  const last = await watcher.update();
  const authors = (s: typeof last.session) =>
    s.turns
      .flatMap((t) => t.atoms)
      .filter((a) => a.uuid.startsWith('p'))
      .map((a) => a.author);
  assert.deepEqual(authors(last.session), [{ peer: 'SENDER' }, { peer: 'SENDER' }]);
  assert.deepEqual(last.session, (await parseSession([path], { rompHome: home })).session);
});

test('romp watch --json prints one line per change', async () => {
  const { cli } = await import('../../src/cli/cli.ts');
  const path = file();
  appendFileSync(path, jsonl(user('u1', null, 'one', 0)));
  const controller = new AbortController();
  let out = '';
  const io = {
    stdout: {
      write: (s: string) => {
        out += s;
        if (out.split('\n').length === 2) appendFileSync(path, jsonl(assistant('a1', 'u1', text('hi'), 1, end('m1'))));
        if (out.split('\n').length === 3) controller.abort();
        return true;
      },
    },
    stderr: { write: () => true },
  };
  const code = await cli(['watch', path, '--json', '--romp-home', tempDir('h-')], io, controller.signal);
  assert.equal(code, 0);
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { changed: string[]; turns: Array<{ atoms: unknown[] }> });
  assert.deepEqual(
    lines.map((l) => [l.changed.length, l.turns.map((t) => t.atoms.length)]),
    [
      [1, [1]],
      [1, [2]],
    ],
  );
});

test('review cases: a parallel result put back after the leaf, a first line without time, a same-uuid pair in one update, an in-place rewrite', async () => {
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const { readFileSync } = await import('node:fs');
  const { toolUse: use, toolResult: result } = await import('../helpers/transcript.ts');
  const check = async (lines: object[], splits: number[]): Promise<void> => {
    const path = file();
    const w = new SessionWatcher([path]);
    let from = 0;
    for (const to of [...splits, lines.length]) {
      appendFileSync(path, jsonl(...lines.slice(from, to)));
      from = to;
      const live = (await w.update()).session;
      const copy = file();
      writeFileSync(copy, readFileSync(path));
      const once = (await parseSession([copy])).session;
      assert.deepEqual(JSON.stringify(live.turns), JSON.stringify(once.turns), `after ${to} lines`);
    }
  };
  await check(
    [
      user('u1', null, 'go', 0),
      assistant('a1', 'u1', use('T1', 'Read'), 1, { mid: 'M', stop: 'tool_use' }),
      user('r1', 'a1', [result('T1', 'x')], 2),
      assistant('a2', 'a1', use('T2', 'Read'), 3, { mid: 'M', stop: 'tool_use' }),
      assistant('a3', 'a2', use('T3', 'Read'), 4, { mid: 'M', stop: 'tool_use' }),
      user('r2', 'a3', [result('T3', 'y')], 5),
    ],
    [4, 5],
  );
  await check(
    [{ ...user('u1', null, 'hi', 0), timestamp: 'not-a-date' }, assistant('a1', 'u1', text('ok'), 1, end('m1'))],
    [1],
  );
  await check(
    [
      user('u1', null, 'one', 0),
      assistant('a1', 'u1', text('one'), 1, end('m1')),
      user('u2', 'a1', 'two', 2),
      user('u2', 'u2', 'again', 3),
      assistant('a2', 'u2', text('x'), 4, end('m2')),
    ],
    [1],
  );
  // rewritten in place, same inode, no shorter: noticed by the bytes before the offset
  const path = file();
  const w = new SessionWatcher([path]);
  appendFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1'))));
  await w.update();
  writeFileSync(
    path,
    jsonl(
      user('n1', null, 'a different and longer first prompt', 0),
      assistant('n2', 'n1', text('another answer, longer'), 1, end('m9')),
    ),
  );
  const u = await w.update();
  assert.deepEqual([u.diagnostics.map((d) => d.code), uuids(w)], [['FILE_REPLACED'], [['n1', 'n2']]]);
});

test('two files with copies of the same lines (progress rows, a queued prompt), appended in turns: each update equals parseSession', async () => {
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const { progress, toolUse: use, toolResult: result } = await import('../helpers/transcript.ts');
  const dir = tempDir('romp-watch-');
  const [early, late] = [join(dir, 'capture.jsonl'), join(dir, 'full.jsonl')];
  writeFileSync(early, '');
  writeFileSync(late, '');
  const old = { version: '2.1.30' };
  const q = (operation: string, sec: number, content?: string) => ({
    type: 'queue-operation',
    operation,
    timestamp: new Date(T0 + sec * 1000).toISOString(),
    sessionId: 'fixture-session',
    ...(content === undefined ? {} : { content }),
  });
  const lines = [
    user('u1', null, 'run it', 0, old),
    assistant('a1', 'u1', use('T1', 'Bash'), 1, { mid: 'M1', stop: 'tool_use', extra: old }),
    progress('p1', 'a1', 1.5),
    q('enqueue', 1.6, 'and then the docs'),
    user('r1', 'p1', [result('T1', 'ok')], 2, old),
    q('remove', 2.1),
    assistant('a2', 'r1', text('done'), 3, { mid: 'M2', stop: 'end_turn', extra: old }),
  ];
  const w = new SessionWatcher([early, late]);
  // the late file's copy arrives line by line, then the capture (an earlier copy) catches up
  for (const [path, line] of [
    ...lines.map((l) => [late, l] as const),
    ...lines.slice(0, 5).map((l) => [early, l] as const),
  ]) {
    appendFileSync(path, jsonl(line));
    const live = (await w.update()).session;
    const once = (await parseSession([early, late])).session;
    assert.deepEqual(JSON.parse(JSON.stringify(live)), JSON.parse(JSON.stringify(once)));
  }
  const atoms = (w.session?.turns ?? []).flatMap((t) => t.atoms.map((a) => a.uuid));
  assert.equal(atoms.filter((u) => u.startsWith('queued:')).length, 1);
  assert.deepEqual(
    w.session?.records.filter((r) => r.type === 'progress').map((r) => [r.fsid, r.onPath]),
    [
      ['capture', true],
      ['full', false],
    ],
  );
});
