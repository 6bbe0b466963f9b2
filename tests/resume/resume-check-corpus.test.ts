/**
 * `romp resume-check` over the real transcripts of ../shared/corpus (read-only), skipped without it.
 */
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { findLostTurns } from '../../src/resume/find-lost-turns.ts';
import { linearFork } from '../../src/resume/linear-fork.ts';
import { verifyFork } from '../../src/resume/verify-fork.ts';
import { readResumeViews } from '../../src/resume/read-resume-views.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { CORPUS_TRANSCRIPTS, corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';

const sessions = corpusTranscripts().filter((f) => !f.includes('/subagents/') && !/\/agent-[^/]*\.jsonl$/.test(f));

test(
  "per corpus session, the turns resume-check reports lost are exactly the full view's turns absent from the context view",
  { skip: !corpusPresent },
  async () => {
    let atRisk = 0;
    for (const file of sessions) {
      const where = relative(CORPUS_TRANSCRIPTS, file);
      const views = await readResumeViews([file]);
      const { report, notes } = findLostTurns(views);
      // the two views parsed again, by the public parser: the files read, and the leaf's file alone
      const full = await parseSession(views.files, { view: 'full', rompUuid: report.session });
      const leaf = full.session.files.find((f) => f.fsid === full.session.leafFsid)?.path ?? file;
      const context = await parseSession([leaf], { view: 'context', rompUuid: report.session });
      const kept = new Set(context.session.turns.map((t) => t.id));
      assert.deepEqual(
        report.lost.map((l) => l.turn_id),
        full.session.turns.filter((t) => !kept.has(t.id)).map((t) => t.id),
        where,
      );
      assert.equal(report.full_turns, full.session.turns.length, where);
      assert.equal(report.context_turns, context.session.turns.length, where);
      for (const l of report.lost)
        assert.ok(
          l.line > 0 && l.uuid !== '' && notes.some((n) => n.cause === l.cause && n.uuid === l.uuid),
          `${where}: ${l.turn_id} located`,
        );
      assert.equal(
        Object.values(report.causes).reduce((a, b) => a + b, 0),
        report.lost.length,
        where,
      );
      if (report.lost.length > 0) atRisk++;
    }
    assert.ok(atRisk >= 5, `${atRisk} corpus sessions at risk`);
  },
);

test(
  'per corpus session at risk, the linear fork of its full view loads whole with the SDK reader and loses nothing on resume',
  { skip: !corpusPresent },
  async () => {
    let forks = 0;
    for (const file of sessions) {
      const where = relative(CORPUS_TRANSCRIPTS, file);
      const views = await readResumeViews([file]);
      if (findLostTurns(views).report.lost.length === 0) continue;
      const fork = linearFork(views.full.path.entries, '00000000-0000-4000-8000-000000000020');
      const check = await verifyFork(fork.lines, '00000000-0000-4000-8000-000000000020', fork.expected);
      assert.ok(check.checked && check.ok, `${where}: the SDK reader does not load the fork as written`);
      forks++;
    }
    assert.ok(forks >= 5, `${forks} forks checked`);
  },
);
