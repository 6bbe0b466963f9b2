/**
 * The corpus laid out as Claude Code projects folders of two machines whose sessions overlap, for
 * the lake tests: every corpus folder holding transcripts is a project; machine `a` has the first two
 * thirds of them, machine `b` the last two thirds (the middle third on both, copied), and the largest
 * session of the middle third is on `a` cut to its first half of lines, on `b` whole (`b` went on
 * with it). Files are copied into temporary folders, never changed in the corpus.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CORPUS_TRANSCRIPTS } from './corpus.ts';
import { tempDir } from './temp-dir.ts';

/** The two machines' projects folders. */
export interface Machines {
  a: string;
  b: string;
  /** The session cut on `a` (its path on `b`). */
  grown: string;
}

function projectFolders(dir: string): string[] {
  const here = readdirSync(dir);
  const own = here.some((n) => n.endsWith('.jsonl') && statSync(join(dir, n)).isFile()) ? [dir] : [];
  return [
    ...own,
    ...here
      .filter((n) => n !== 'subagents' && statSync(join(dir, n)).isDirectory())
      .flatMap((n) => projectFolders(join(dir, n))),
  ];
}

/**
 * Lays out the two machines.
 * @returns their projects folders
 */
export function corpusMachines(): Machines {
  const root = tempDir('romp-machines-');
  const projects = projectFolders(CORPUS_TRANSCRIPTS).filter(
    (d) => !relative(CORPUS_TRANSCRIPTS, d).split('/').includes('subagents'),
  );
  const third = Math.ceil(projects.length / 3);
  const on = { a: projects.slice(0, 2 * third), b: projects.slice(third) };
  const middle = projects.slice(third, 2 * third);
  const mains = middle.flatMap((d) =>
    readdirSync(d)
      .filter((n) => n.endsWith('.jsonl') && !n.startsWith('agent-'))
      .map((n) => join(d, n)),
  );
  const largest = mains.sort((x, y) => statSync(y).size - statSync(x).size)[0] as string;
  const place = (machine: 'a' | 'b', dir: string): string =>
    join(root, machine, relative(CORPUS_TRANSCRIPTS, dir).replace(/[/\\]/g, '__'));
  for (const machine of ['a', 'b'] as const) {
    for (const dir of on[machine]) {
      const target = place(machine, dir);
      mkdirSync(target, { recursive: true });
      for (const name of readdirSync(dir)) {
        const from = join(dir, name);
        if (name.endsWith('.jsonl') && statSync(from).isFile()) {
          if (machine === 'a' && from === largest) {
            const lines = readFileSync(from, 'utf8').split('\n');
            writeFileSync(join(target, name), `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
          } else cpSync(from, join(target, name));
          const folder = from.slice(0, -'.jsonl'.length);
          if (existsSync(folder) && statSync(folder).isDirectory())
            cpSync(folder, join(target, name.slice(0, -'.jsonl'.length)), { recursive: true });
        }
      }
    }
  }
  return {
    a: join(root, 'a'),
    b: join(root, 'b'),
    grown: join(place('b', largest.slice(0, largest.lastIndexOf('/'))), largest.slice(largest.lastIndexOf('/') + 1)),
  };
}
