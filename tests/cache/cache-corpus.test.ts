/**
 * `romp cache` over the real transcripts of ../shared/corpus (read-only), skipped without it.
 */
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { explainCacheWrites } from '../../src/cache/explain-cache-writes.ts';
import { readCacheLines } from '../../src/cache/read-cache-lines.ts';
import { countUsage } from '../../src/usage/count-usage.ts';
import { sessionSubagents } from '../../src/discover/list-claude-sessions.ts';
import { CORPUS_TRANSCRIPTS, corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';

const sessions = corpusTranscripts().filter((f) => !f.includes('/subagents/') && !/\/agent-[^/]*\.jsonl$/.test(f));

test(
  "per corpus session, the cache causes add up to romp usage's cache-write tokens, each response once",
  { skip: !corpusPresent },
  async () => {
    let explained = 0;
    for (const file of sessions) {
      const where = relative(CORPUS_TRANSCRIPTS, file);
      const files = [file, ...(await sessionSubagents(file))];
      const usage = await countUsage(files);
      const { report, writes } = explainCacheWrites(usage.responses, await readCacheLines(files));
      assert.equal(report.total.tokens, usage.total.cache_creation_input_tokens, where);
      assert.equal(
        Object.values(report.causes).reduce((n, c) => n + c.tokens, 0),
        report.total.tokens,
        `${where}: causes`,
      );
      for (const [id, totals] of Object.entries(usage.bySession))
        assert.equal(report.bySession[id]?.tokens ?? 0, totals.cache_creation_input_tokens, `${where}: session ${id}`);
      assert.equal(
        new Set(writes.map((w) => `${w.sessionId} ${w.messageId} ${w.file}`)).size,
        writes.length,
        `${where}: a response explained twice`,
      );
      for (const w of writes)
        assert.ok(
          Number.isFinite(w.cost_usd) && w.extra_cost_usd >= 0 && w.extra_cost_usd <= w.cost_usd + 1e-12,
          `${where}: ${w.messageId} priced`,
        );
      explained += writes.length;
    }
    assert.ok(explained > 1000, `${explained} writes explained`);
  },
);
