/**
 * The floor of a full `romp index` build, printed beside issue 17's target (a build within 3× `romp usage`): two
 * costs that no build of these rows can skip, measured in this process in CPU time. The parse floor over every
 * transcript of the folder (`bench/floor.ts`: read, split, `JSON.parse` each line: the text the full-text indexes
 * hold is in the lines) and FTS5's own work for the text the built index holds: both full-text indexes made in one
 * pass (`rebuild`, rowids in order: the cheapest FTS5 has) over a copy of its blocks in a scratch index of the same
 * schema.
 */
import { rmSync } from 'node:fs';
import { discoverTranscripts } from '../src/discover/discover-transcripts.ts';
import { openIndexForWrite } from '../src/index-db/open-index.ts';
import { floor } from './floor.ts';

/** The floor's parts, in ms of CPU time. */
export interface BuildFloor {
  /** Read, split and `JSON.parse` every line of every transcript. */
  parse: number;
  /** `blocks_fts` (the word index) made in one pass. */
  words: number;
  /** `blocks_trigram` made in one pass. */
  trigrams: number;
}

const cpuMs = (since?: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/**
 * Measures the floor of a build of `index` from the transcripts under `projects`.
 * @param projects the projects folder the index was built from
 * @param index the built index (`index.db`), read only
 * @param scratch a path for the scratch index, deleted after
 * @returns the floor's parts, ms of CPU
 */
export async function buildFloor(projects: string, index: string, scratch: string): Promise<BuildFloor> {
  const { files } = await discoverTranscripts(projects);
  const start = process.cpuUsage();
  for (const file of files) await floor(file.path);
  const parse = cpuMs(start);
  const db = openIndexForWrite(scratch, () => {});
  try {
    db.run('ATTACH ? AS built', [index]);
    db.exec('INSERT INTO blocks SELECT * FROM built.blocks ORDER BY id');
    const one = (table: string): number => {
      const at = process.cpuUsage();
      db.exec(`BEGIN; INSERT INTO ${table}(${table}) VALUES ('rebuild'); COMMIT`);
      return cpuMs(at);
    };
    return { parse, words: one('blocks_fts'), trigrams: one('blocks_trigram') };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
  }
}
