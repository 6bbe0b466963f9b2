import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assistant, compactBoundary, text, user } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';

// `romp watch` and the pager on a real pseudo-terminal: util-linux `script` (in Debian's essential
// bsdutils) runs the CLI on a pty and copies what the terminal received to its stdout
// the bundled command line, as package.json's bin ships it (build/bundle-cli.ts)
const BIN = fileURLToPath(new URL('../src/cli/romp.cjs', import.meta.url));
const installed = (command: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
// .ci/run installs both on Debian when missing
const skip = installed('script') ? false : 'util-linux script is not installed';
const skipPager = skip === false && !installed('less') ? 'less is not installed' : skip;

const end = (mid: string) => ({ mid, stop: 'end_turn' });
const jsonl = (...records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command run on a pty of `cols`×`rows`; `until` waits for what the terminal shows. */
function onTerminal(
  command: string,
  cols: number,
  rows: number,
  env: Record<string, string> = {},
): {
  proc: ChildProcess;
  screen: () => string;
  until: (what: (s: string) => boolean) => Promise<string>;
  exited: Promise<number | null>;
} {
  const proc = spawn('script', ['-qfec', `stty cols ${cols} rows ${rows}; exec ${command}`, '/dev/null'], {
    env: { ...process.env, TZ: 'UTC', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const waiting: Array<() => void> = [];
  proc.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of waiting.splice(0)) w();
  });
  const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
  // a guard, not a timing: what never shows fails the test with the screen instead of hanging it
  const until = async (what: (s: string) => boolean): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), 30_000)));
    try {
      while (!what(out)) {
        const more = new Promise<void>((resolve) => waiting.push(resolve));
        const why = await Promise.race([more.then(() => 'data'), exited.then(() => 'exit'), stuck]);
        if (why !== 'data' && !what(out))
          throw new Error(`${why === 'exit' ? 'ended' : 'still waiting'}; the terminal shows ${JSON.stringify(out)}`);
      }
      return out;
    } finally {
      clearTimeout(timer);
    }
  };
  return { proc, screen: () => out, until, exited };
}

/** Runs `romp watch ARGS` on a pty while `check` looks at the screen, then ends it with Ctrl-C, as a person does. */
async function watchOnTerminal(
  args: string,
  cols: number,
  check: (t: ReturnType<typeof onTerminal>) => Promise<void>,
): Promise<void> {
  const t = onTerminal(`node ${quote(BIN)} watch ${args} --timezone UTC`, cols, 20);
  try {
    await check(t);
  } finally {
    // the terminal turns ^C into SIGINT for romp; should that not end it, script's process group is ended
    t.proc.stdin?.write('\x03');
    const ended = await Promise.race([
      t.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
    ]);
    if (!ended) process.kill(-(t.proc.pid as number), 'SIGTERM');
    await t.exited;
  }
}

/** The blocks of a redrawing watch: the text between one cursor-up-and-erase and the next, newlines plain. */
const blocks = (s: string): string[] => s.replace(/\r\n/g, '\n').split(/\x1b\[\d+F\x1b\[J/);

test(
  'watch on a terminal: one line per turn, redrawn in place as the open turn ends, a rewind marked',
  { skip },
  async () => {
    const dir = tempDir('romp-tty-');
    const file = join(dir, 's1.jsonl');
    writeFileSync(
      file,
      jsonl(
        user('u1', null, 'first question', 0),
        assistant('a1', 'u1', text('one'), 1, end('m1')),
        user('u2', 'a1', 'second: run the tests', 5),
      ),
    );
    await watchOnTerminal(quote(file), 100, async (t) => {
      const first = await t.until((s) => s.includes('cache:'));
      assert.deepEqual(blocks(first)[0]?.split('\n').slice(0, 3), [
        '(untitled)  s1.jsonl  2 turns  times in UTC',
        '#1  2026-03-01 10:00  human  completed  2 atoms  tokens in 110 out 5  "first question"',
        '#2  2026-03-01 10:00  human  open  1 atom  tokens in 0 out 0  "second: run the tests"',
      ]);
      // the open turn ends: the block (title, 2 turns, clock = 4 lines) is redrawn over itself
      appendFileSync(file, jsonl(assistant('a2', 'u2', text('all green'), 9, end('m2'))));
      const second = await t.until((s) => blocks(s).length === 2 && blocks(s)[1]?.includes('cache:') === true);
      assert.match(second, /cache: [^\n]*\r\n\x1b\[4F\x1b\[J\(untitled\)/);
      assert.equal(
        blocks(second)[1]?.split('\n')[2],
        '#2  2026-03-01 10:00  human  completed  2 atoms  tokens in 110 out 5  "second: run the tests"',
      );
      // a rewind: a prompt hanging on a1 again drops turn 2, and the block says so
      appendFileSync(file, jsonl(user('u3', 'a1', 'asked again', 60)));
      const third = await t.until((s) => blocks(s).length === 3 && blocks(s)[2]?.includes('cache:') === true);
      const lines = blocks(third)[2]?.split('\n') ?? [];
      assert.equal(lines[2], '#2  2026-03-01 10:01  human  open  1 atom  tokens in 0 out 0  "asked again"');
      assert.match(lines[3] ?? '', /^» \d{4}-\d\d-\d\d \d\d:\d\d {2}rewind: turn #2 dropped$/);
      // a compaction arriving live is marked in the block too
      appendFileSync(
        file,
        jsonl(
          assistant('a3', 'u3', text('ok'), 61, end('m3')),
          compactBoundary('b', 'a3', 70),
          user('s', 'b', 'summary', 70, { isCompactSummary: true }),
          user('u4', 's', 'go on', 80),
        ),
      );
      const fourth = await t.until((s) => blocks(s).some((b) => b.includes('compaction in turn')));
      assert.match(fourth, /» [^\n]*compaction in turn #2/);
      assert.match(blocks(fourth).at(-1) ?? blocks(fourth).at(-2) ?? '', /#2 [^\n]*compacted 1×/);
    });
  },
);

test('watch on a narrow terminal cuts each line to its width, never wraps', { skip }, async () => {
  const dir = tempDir('romp-tty-');
  const file = join(dir, 's2.jsonl');
  writeFileSync(
    file,
    jsonl(
      user('u1', null, 'a long question '.repeat(10), 0),
      assistant('a1', 'u1', text('one'), 1, end('m1')),
      user('u2', 'a1', '\x1b]0;pwned\x07\u202ex', 5),
    ),
  );
  await watchOnTerminal(quote(file), 40, async (t) => {
    const out = await t.until((s) => s.includes('cache:'));
    const lines =
      blocks(out)[0]
        ?.split('\n')
        .filter((l) => l !== '') ?? [];
    assert.equal(lines[1], '#1  2026-03-01 10:00  human  completed…');
    for (const line of lines) assert.ok([...line].length <= 39, line);
    assert.equal(lines[2], '#2  2026-03-01 10:00  human  open  1 a…');
  });
});

test(
  'watch redraws on a resize: narrower, the screen cleared and each line cut; wider, in place',
  { skip },
  async () => {
    const dir = tempDir('romp-tty-');
    const file = join(dir, 's3.jsonl');
    writeFileSync(
      file,
      jsonl(user('u1', null, 'a long question '.repeat(6), 0), assistant('a1', 'u1', text('one'), 1, end('m1'))),
    );
    // the pty's name, so that the test can resize it (stty -F): the kernel then sends romp SIGWINCH
    const ttyName = join(dir, 'tty');
    const watch = `tty > ${quote(ttyName)}; exec node ${quote(BIN)} watch ${quote(file)} --timezone UTC`;
    const t = onTerminal(`sh -c ${quote(watch)}`, 100, 20);
    const resize = (cols: number): void => {
      execFileSync('stty', ['-F', readFileSync(ttyName, 'utf8').trim(), 'cols', String(cols)]);
    };
    try {
      const wide = await t.until((s) => s.includes('cache:'));
      assert.match(wide, /out 5 {2}"a long question a long ques…\r\n/);
      resize(40);
      const narrow = await t.until((s) => /\x1b\[H\x1b\[2J[^]*cache:/.test(s));
      const lines = (narrow.split('\x1b[H\x1b[2J')[1] ?? '').split('\r\n').filter((l) => l !== '');
      assert.equal(lines[1], '#1  2026-03-01 10:00  human  completed…');
      for (const line of lines) assert.ok([...line].length <= 39, line);
      resize(100);
      const again = await t.until((s) => /\x1b\[H\x1b\[2J[^]*cache:[^]*\x1b\[\d+F\x1b\[J[^]*cache:/.test(s));
      assert.match(again.slice(again.lastIndexOf('\x1b[J')), /out 5 {2}"a long question a long ques…\r\n/);
    } finally {
      t.proc.stdin?.write('\x03');
      await t.exited;
    }
  },
);

test('watch --latest waits for a first session, then moves on to the next one', { skip }, async () => {
  const projects = tempDir('romp-tty-');
  const folder = join(projects, '-work-app');
  mkdirSync(folder);
  await watchOnTerminal(`--latest --projects ${quote(projects)} 2>&1`, 100, async (t) => {
    await t.until((s) => s.includes('romp: waiting for a session under'));
    // each session appears whole (written beside, then renamed in): a file seen empty for a moment would be
    // drawn with 0 turns and then redrawn, which is right but not what this test looks at
    const appear = (name: string, content: string): void => {
      writeFileSync(join(projects, name), content);
      renameSync(join(projects, name), join(folder, name));
    };
    appear('aaaa1111.jsonl', jsonl(user('u1', null, 'in the first session', 0)));
    await t.until((s) => s.includes('"in the first session"'));
    appear('bbbb2222.jsonl', jsonl(user('v1', null, 'in the second session', 0)));
    const out = await t.until((s) => s.includes('"in the second session"'));
    const last = blocks(out).at(-1) ?? '';
    assert.match(last, /^\(untitled\) {2}bbbb2222\.jsonl {2}1 turn /m);
    assert.match(last, /» [^\n]*following new session bbbb2222/);
    // the first session's block stays above: the new block is drawn below it, not over it
    assert.equal(blocks(out).length, 1);
    assert.equal(out.match(/waiting for a session/g)?.length, 1);
  });
});

test('watch of a file not there yet says so once, then follows it', { skip }, async () => {
  const dir = tempDir('romp-tty-');
  const file = join(dir, 'later.jsonl');
  await watchOnTerminal(`${quote(file)} 2>&1`, 100, async (t) => {
    await t.until((s) => s.includes('romp: waiting for'));
    writeFileSync(file, jsonl(user('u1', null, 'here \x1b]0;x\x07\u202e', 0)));
    const out = await t.until((s) => s.includes('"here '));
    // a transcript's control characters reach the terminal escaped, in the redrawn block too
    assert.match(out, /"here \\x1b\]0;x\\x07\\u202e"/);
    assert.ok(!/[\x07\u202e]|\x1b\]/.test(out));
    assert.equal(out.match(/romp: waiting for [^\r\n]*later\.jsonl to be created/g)?.length, 1);
  });
});

const conversation = (turns: number): string =>
  jsonl(
    ...Array.from({ length: turns }, (_, i) => [
      user(`u${i}`, i === 0 ? null : `a${i - 1}`, `question number ${i}`, i * 10),
      assistant(`a${i}`, `u${i}`, text(`answer number ${i}`), i * 10 + 1, end(`m${i}`)),
    ]).flat(),
  );

test(
  'show --full on a terminal goes through less -FRX: a long one pages until q, a short one prints and quits',
  { skip: skipPager },
  async () => {
    const dir = tempDir('romp-tty-');
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, conversation(30));
    const paged = onTerminal(`node ${quote(BIN)} show --full ${quote(long)} --timezone UTC`, 80, 12, {
      PAGER: 'less -FRX',
    });
    const first = await paged.until((s) => s.includes('question number 1'));
    // less stops at the screen's end with its prompt (`:` then erase-line); the last turn is not shown yet
    const page = await paged.until((s) => s.includes(':\x1b[K'));
    assert.ok(!first.includes('answer number 29') && !page.includes('question number 29'));
    paged.proc.stdin?.write('q');
    assert.equal(await paged.exited, 0);
    assert.ok(!paged.screen().includes('answer number 29'));

    const short = join(dir, 'short.jsonl');
    writeFileSync(short, conversation(1));
    const printed = onTerminal(`node ${quote(BIN)} show --full ${quote(short)} --timezone UTC`, 80, 40, {
      PAGER: 'less -FRX',
    });
    assert.equal(await printed.exited, 0);
    assert.match(printed.screen(), /question number 0[\s\S]*answer number 0/);
  },
);

test(
  'romp index on a terminal: what it says of another projects folder comes after its progress bar is gone',
  { skip },
  async () => {
    const root = tempDir('romp-tty-');
    for (const [folder, name] of [
      ['A', 'a'],
      ['B', 'b'],
    ] as const) {
      mkdirSync(join(root, folder, '-p'), { recursive: true });
      writeFileSync(join(root, folder, '-p', `${name}.jsonl`), conversation(2));
    }
    const index = (folder: string): string =>
      `node ${quote(BIN)} index --projects ${quote(join(root, folder))} --romp-home ${quote(join(root, 'home'))}`;
    assert.equal(await onTerminal(index('A'), 100, 20).exited, 0);
    const t = onTerminal(index('B'), 100, 20);
    assert.equal(await t.exited, 0);
    const screen = t.screen();
    // the bar was drawn, then cleared (erase the line) before the note was written, not over it
    assert.match(screen, /index .* 0\/1 files/);
    const note = screen.indexOf('romp: ');
    assert.ok(note > screen.lastIndexOf('\x1b[2K'), JSON.stringify(screen));
    // wrapped to the terminal's width, between words
    const said = screen.slice(note).replace(/\r\n {2}/g, ' ');
    assert.match(said, /held the sessions of \S*\/A; now of \S*\/B \(1 transcript of the other folder removed;/);
  },
);
