/** `romp html` and `romp export` through the CLI, on the fixtures of the golden tests. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import type { Session } from '../../src/model/types.ts';
import { assistant, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';
import { FEATURES } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';

const feature = (name: string): string => (FEATURES[name] as () => string[])()[0] as string;

test('romp html -o writes the page and names it on stderr; without -o the page is on stdout', async () => {
  const out = join(tempDir('romp-html-cli-'), 'page.html');
  const path = feature('tools');
  const written = await runCli(['html', path, '-o', out]);
  assert.equal(written.code, 0);
  assert.match(written.err, /^wrote .*page\.html: \d+ KB, 1 turn\n$/);
  const page = readFileSync(out, 'utf8');
  assert.ok(page.includes('<span class="chip">Bash: npm test</span>'));
  assert.equal((await runCli(['html', path])).out, page);
  assert.equal((await runCli(['html'])).code, 2);
});

test('romp export --format md: headings, fenced prompt, calls with fenced input and result, diffs, branches', async () => {
  const tools = await runCli(['export', feature('tools'), '--timezone', 'UTC']);
  assert.equal(tools.code, 0);
  assert.ok(
    tools.out.includes(
      '## Turn 1 · human · 2026-03-01 10:00 · completed · 5 s · 345 tokens · $0.0004\n\n> ```\n> look around\n> ```\n\n**4 tool calls · Bash, Read, Grep, mcp__fs__list**\n\n**Bash: npm test**\n\n```sh\nnpm test\n```\n\n```\nall 12 tests pass\n```',
    ),
  );
  assert.ok(tools.out.includes('**Grep: "TODO" in src** (error)'));
  const diff = (await runCli(['export', feature('diff')])).out;
  assert.ok(diff.includes('```diff\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n```'));
  assert.ok(diff.includes('```diff\n@@ -7,2 +7,2 @@\n kept-by-claude\n-one\n+from-claude-code\n```'));
  const rewind = (await runCli(['export', feature('rewind')])).out;
  assert.ok(rewind.includes('Started.\n\n*↳ rewound branch: first try (2 lines)*'));
  assert.ok(
    rewind.includes(
      '## Rewound branches\n\n### Rewound branch (2 lines)\n\n> ```\n> first try\n> ```\n\nAbandoned answer.',
    ),
  );
  const compaction = (await runCli(['export', feature('compaction'), '--view', 'context'])).out;
  assert.ok(!compaction.includes('Old answer.'));
  assert.ok(compaction.includes('**compacted** · manual · 48.2k tokens before'));
});

test('romp export --format md: a fence outgrows the backticks it holds; assistant Markdown stays as written', async () => {
  const { out } = await runCli(['export', feature('markdown')]);
  assert.ok(out.includes('```ts\nconst answer: number = 42;\n```'));
  const path = writeJsonl([
    user('u1', null, 'q', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'echo ```' }), 1, { mid: 'm', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', '`````five')], 2),
  ]);
  const fenced = (await runCli(['export', path])).out;
  assert.ok(fenced.includes('````sh\necho ```\n````'));
  assert.ok(fenced.includes('``````\n`````five\n``````'));
});

test('romp html and export --format md print times in --timezone, the zone said once', async () => {
  // 21:46:05 UTC + 5:45 (Kathmandu, no summer time) = 03:31 the next day
  const path = writeJsonl([
    user('u1', null, 'q', 0, { timestamp: '2026-02-11T21:46:05.123Z' }),
    assistant('a1', 'u1', { type: 'text', text: 'ok' }, 1, {
      mid: 'm',
      extra: { timestamp: '2026-02-11T21:46:05.123Z' },
    }),
  ]);
  const page = (await runCli(['html', path, '--timezone', 'Asia/Kathmandu'])).out;
  assert.ok(page.includes('<time>2026-02-12 03:31</time>'));
  // ICU (Node 20) names the zone by its old spelling, Asia/Katmandu; a newer ICU may not
  const head = / · 2026-02-12 03:31 → 2026-02-12 03:31 \(times in Asia\/Kath?mandu\) · 1 turn/;
  assert.match(page, head);
  assert.ok(!page.includes('21:46'));
  const md = (await runCli(['export', path, '--timezone', 'Asia/Kathmandu'])).out;
  assert.match(md, head);
  assert.ok(md.includes('## Turn 1 · human · 2026-02-12 03:31 · '));
  assert.equal(md.split(/Asia\/Kath?mandu/).length, 2);
  const bad = await runCli(['html', path, '--timezone', 'Mars/Olympus']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Mars\/Olympus is not an IANA time zone/);
  assert.equal((await runCli(['export', path, '--timezone', 'Mars/Olympus'])).code, 2);
});

test('romp export --format json is the Session', async () => {
  const { out } = await runCli(['export', feature('text'), '--format', 'json']);
  const session = JSON.parse(out) as Session;
  assert.deepEqual(
    session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [['u1', 'a1']],
  );
});

test('romp html and export: the title line says its own turns and, apart, the total with subagents', async () => {
  // each response: 10 in, 5 out, 100 cache read at Sonnet 4.5 ($3, $15, $0.30 per M) = $0.000135, 115 tokens
  const path = writeJsonl([
    user('u1', null, 'q', 0),
    assistant('a1', 'u1', toolUse('t1', 'Task', { prompt: 'look' }), 1, { mid: 'm1', stop: 'tool_use' }),
    user('s1', null, 'look', 2, { isSidechain: true }),
    assistant('s2', 's1', { type: 'text', text: 'seen' }, 3, {
      mid: 'm3',
      stop: 'end_turn',
      extra: { isSidechain: true },
    }),
    user('r1', 'a1', [toolResult('t1', 'seen')], 4),
    assistant('a2', 'r1', { type: 'text', text: 'ok' }, 5, { mid: 'm2', stop: 'end_turn' }),
  ]);
  const label = '230 tokens · $0.0003 in its own turns · 345 tokens · $0.0004 with subagents (as romp usage counts)';
  assert.ok((await runCli(['html', path])).out.includes(`· 1 turn · ${label}</span>`));
  assert.ok((await runCli(['export', path])).out.includes(`· 1 turn · ${label}\n`));
  // without subagents, one figure as before
  assert.match((await runCli(['export', feature('text')])).out, / · 1 turn · [\d.k]+ tokens · \$[\d.]+\n/);
  if (!corpusPresent) return;
  // a Claude Code 1.0.x session whose Task calls ran inline (isSidechain lines in the main file)
  const [kimuson] = corpusTranscripts().filter((f) => f.includes('fe5e1c67-53e7'));
  const page = (await runCli(['html', kimuson as string])).out;
  assert.ok(page.includes('171.0k tokens · $0.1141 in its own turns · 3.8M tokens · $2.39 with subagents'));
});
