/**
 * Hostile projects folders for `npm run fuzz` (and a few cases in `npm test`): FIFOs named `*.jsonl`,
 * links to `/dev/zero` and `/etc/passwd`, dangling and self links, links back to the folder (loops),
 * links to transcripts and project folders inside it, nested subagent files. For every case, `romp ls`
 * and `romp usage` end (a FIFO never blocks them), list only regular files inside the folder, name
 * every entry they leave out, and usage counts each response of a reachable transcript once.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { cli } from '../src/cli/cli.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { assistant, text, user } from '../tests/helpers/transcript.ts';

const KINDS = [
  'file',
  'agent',
  'fifo',
  'dev-zero',
  'outside',
  'dangling',
  'self-link',
  'loop',
  'inside-link',
  'project-link',
] as const;
type Kind = (typeof KINDS)[number];
/** Kinds that must be named as skipped: they are never regular files inside the folder. */
const SKIPPED = new Set<Kind>(['fifo', 'dev-zero', 'outside', 'dangling', 'self-link', 'loop']);

/** One project folder's entries, by kind. */
const folderArb = fc.array(fc.array(fc.constantFrom(...KINDS), { maxLength: 8 }), { minLength: 1, maxLength: 3 });

function transcript(id: string): string {
  const lines = [
    user(`u-${id}`, null, `prompt ${id}`, 0, { sessionId: id }),
    assistant(`a-${id}`, `u-${id}`, text('ok'), 1, {
      mid: `m-${id}`,
      stop: 'end_turn',
      extra: { sessionId: id, requestId: `r-${id}` },
    }),
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Builds the folder; returns what a correct walk gives. */
function build(projects: Kind[][]): { root: string; responses: number; skipped: string[]; special: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'romp-fuzz-projects-'));
  const files: string[] = [];
  const skipped: string[] = [];
  const special: string[] = [];
  let responses = 0;
  let n = 0;
  const links: Array<() => void> = [];
  projects.forEach((kinds, p) => {
    const dir = join(root, `-p${p}`);
    mkdirSync(dir);
    for (const kind of kinds) {
      const id = `e${n++}`;
      const path = join(dir, `${id}.jsonl`);
      if (kind === 'file' || kind === 'agent') {
        const at = kind === 'file' ? path : join(dir, id, 'subagents', `agent-${id}.jsonl`);
        mkdirSync(join(at, '..'), { recursive: true });
        writeFileSync(at, transcript(id));
        files.push(at);
        responses++;
      } else if (kind === 'fifo') {
        execFileSync('mkfifo', [path]);
        special.push(path);
      } else if (kind === 'dev-zero') symlinkSync('/dev/zero', path);
      else if (kind === 'outside') symlinkSync('/etc/passwd', path);
      else if (kind === 'dangling') symlinkSync(join(root, 'nowhere'), path);
      else if (kind === 'self-link') symlinkSync(path, path);
      else if (kind === 'loop') symlinkSync(root, join(dir, id));
      else if (kind === 'inside-link') links.push(() => files[0] !== undefined && symlinkSync(files[0], path));
      else links.push(() => symlinkSync(join(root, '-p0'), join(root, `-link${id}`)));
      if (SKIPPED.has(kind)) skipped.push(kind === 'loop' ? join(dir, id) : path);
    }
  });
  for (const link of links) link();
  special.push('/dev/zero');
  return { root, responses, skipped, special };
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await cli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { code, out, err };
}

/** Fails a case that does not end within `ms` (a hang on a FIFO), instead of stalling the run. */
async function ends<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`did not end within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(projects: Kind[][]): Promise<void> {
  const { root, responses, skipped, special } = build(projects);
  try {
    await checkFolder(root, responses, skipped, special);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function checkFolder(root: string, responses: number, skipped: string[], special: string[]): Promise<void> {
  const realRoot = realpathSync(root);
  const ls = await ends(run(['ls', '--projects', root, '--json']), 10_000);
  if (ls.code !== 0) throw new Error(`ls exit ${ls.code}: ${ls.err}`);
  for (const { path } of JSON.parse(ls.out) as Array<{ path: string }>) {
    const real = realpathSync(path);
    if (!real.startsWith(`${realRoot}/`) || !statSync(real).isFile()) throw new Error(`ls listed ${path} (${real})`);
  }
  for (const path of skipped)
    if (!ls.err.includes(`romp: skipped ${path}: `)) throw new Error(`ls did not name ${path}: ${ls.err}`);
  // a folder without transcripts is a report of nothing, exit 0, as ls lists no session
  const usage = await ends(run(['usage', '--projects', root, '--json']), 20_000);
  const counted = usage.code === 0 ? (JSON.parse(usage.out) as { total: { responses: number } }).total.responses : NaN;
  if (usage.code !== 0 || counted !== responses)
    throw new Error(`usage counted ${counted} of ${responses} responses, exit ${usage.code}: ${usage.err}`);
  for (const path of special) {
    const { diagnostics } = await ends(parseSession([path]), 10_000);
    if (diagnostics.map((d) => d.code).join() !== 'FILE_UNREADABLE')
      throw new Error(`parseSession(${path}): ${JSON.stringify(diagnostics)}`);
  }
}

/** The suites of this module, in the shape `fuzz/run.ts` runs. */
export function projectsFolderProperties(): Array<{ name: string; property: fc.IAsyncPropertyWithHooks<[Kind[][]]> }> {
  return [
    {
      name: 'projects folders with FIFOs and symlinks: ls and usage end, list regular files inside only, name what they skip',
      property: fc.asyncProperty(folderArb, check),
    },
  ];
}
