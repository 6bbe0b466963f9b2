import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import { assistant, text, user } from '../helpers/transcript.ts';
import { fifo } from '../helpers/special-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A projects folder holding `-work-app/<id>.jsonl`: one prompt and one API response (`m-<id>`) each. */
function projects(ids: string[]): string {
  const root = tempDir('romp-projects-');
  for (const id of ids) session(root, `-work-app/${id}.jsonl`, id);
  return root;
}

function session(root: string, relative: string, id: string): void {
  const path = join(root, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  const lines = [
    user(`u-${id}`, null, `prompt ${id}`, 0, { sessionId: id }),
    assistant(`a-${id}`, `u-${id}`, text('ok'), 1, {
      mid: `m-${id}`,
      stop: 'end_turn',
      extra: { sessionId: id, requestId: `r-${id}` },
    }),
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const ids = (out: string): string[] => (JSON.parse(out) as Array<{ id: string }>).map((s) => s.id).sort();

test('a FIFO named *.jsonl in a projects folder: ls and usage skip it, name it on stderr, never hang', async () => {
  const root = projects(['s1']);
  const pipe = fifo(join(root, '-work-app'), 'pipe.jsonl');
  const ls = await runCli(['ls', '--projects', root, '--json']);
  assert.deepEqual([ls.code, ids(ls.out), ls.err], [0, ['s1'], `romp: skipped ${pipe}: not a regular file (a FIFO)\n`]);
  const usage = await runCli(['usage', '--projects', root, '--json']);
  assert.deepEqual(
    [usage.code, (JSON.parse(usage.out) as { total: { responses: number } }).total.responses, usage.err],
    [0, 1, `romp: skipped ${pipe}: not a regular file (a FIFO)\n`],
  );
});

test('a *.jsonl symlink to a file outside the projects folder (/etc/passwd) is never opened: skipped and named', async () => {
  const root = projects(['s1']);
  const outside = tempDir('romp-outside-');
  session(outside, 'secret.jsonl', 'secret');
  symlinkSync('/etc/passwd', join(root, '-work-app', 'passwd.jsonl'));
  symlinkSync(join(outside, 'secret.jsonl'), join(root, '-work-app', 'secret.jsonl'));
  symlinkSync(outside, join(root, '-work-out'));
  symlinkSync(join(root, 'nowhere'), join(root, '-work-app', 'dangling.jsonl'));
  const ls = await runCli(['ls', '--projects', root, '--json']);
  assert.deepEqual([ls.code, ids(ls.out)], [0, ['s1']]);
  assert.doesNotMatch(ls.out, /root:|secret/);
  assert.deepEqual(ls.err.split('\n'), [
    `romp: skipped ${root}/-work-app/dangling.jsonl: dangling or looping link`,
    `romp: skipped ${root}/-work-app/passwd.jsonl: link leading out of the projects folder`,
    `romp: skipped ${root}/-work-app/secret.jsonl: link leading out of the projects folder`,
    `romp: skipped ${root}/-work-out: link leading out of the projects folder`,
    '',
  ]);
});

test('usage counts every transcript ls lists: a symlinked project folder and a symlinked transcript inside the folder (3 of 3 responses)', async () => {
  const root = projects(['s1']);
  // a project folder kept under another name and linked, a transcript linked from another project, a link loop
  session(root, '.moved/-work-lib/s2.jsonl', 's2');
  session(root, '.moved/s3-real.jsonl', 's3');
  symlinkSync(join(root, '.moved', '-work-lib'), join(root, '-work-lib'));
  symlinkSync(join(root, '.moved', 's3-real.jsonl'), join(root, '-work-app', 's3.jsonl'));
  symlinkSync(root, join(root, '-work-app', 'loop'));
  const ls = await runCli(['ls', '--projects', root, '--json']);
  assert.deepEqual(ids(ls.out), ['s1', 's2', 's3', 's3-real']);
  const usage = await runCli(['usage', '--projects', root, '--json']);
  const report = JSON.parse(usage.out) as { total: { responses: number }; bySession: Record<string, unknown> };
  assert.deepEqual(
    [usage.code, report.total.responses, Object.keys(report.bySession).sort()],
    [0, 3, ['s1', 's2', 's3']],
  );
  assert.equal(usage.err, `romp: skipped ${root}/-work-app/loop: link to a folder that holds it (a loop)\n`);
});

test('ls reads first and last times from spaced JSON ("timestamp": "…", as a pretty-printer writes it) too', async () => {
  const root = tempDir('romp-projects-');
  mkdirSync(join(root, '-work-app'));
  const lines = [
    '{"type": "user", "uuid": "u1", "parentUuid": null, "timestamp" : "2026-03-01T10:00:00.000Z", "message": {"role": "user", "content": "hi"}}',
    '{"type": "assistant", "uuid": "a1", "parentUuid": "u1", "timestamp":\t"2026-03-01T10:00:07.000Z", "message": {"id": "m", "role": "assistant", "content": []}}',
  ];
  writeFileSync(join(root, '-work-app', 's1.jsonl'), lines.join('\n') + '\n');
  const [listed] = JSON.parse(
    (await runCli(['ls', '--projects', root, '--json', '--timezone', 'Europe/Paris'])).out,
  ) as Array<{ first: string; last: string }>;
  assert.deepEqual([listed?.first, listed?.last], ['2026-03-01T11:00:00.000+01:00', '2026-03-01T11:00:07.000+01:00']);
});
