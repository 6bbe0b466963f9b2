/**
 * `npm run bench`: the file adapter's speed and memory against the floor measured in the same run.
 *
 * Floor = read the same bytes, split lines, `JSON.parse` each line, keep nothing; a second baseline also
 * keeps every parsed value (what holding a model in memory costs the garbage collector, with no other
 * work). Ours = `parseSession` (the whole model). Each is run 3 times, alternating, and the median is reported. Peak memory is the
 * child process's peak resident set (VmHWM) over the file's size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineDecoder } from '../src/read/line-decoder.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { generateTranscript } from './generate.ts';
import { benchLs } from './ls.ts';
import { benchStream } from './stream.ts';
import { benchUsage } from './usage.ts';
import { benchWatch } from './watch.ts';

const HERE = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

/** The floor: split lines and `JSON.parse` each; with `keep`, also hold every parsed value (the cost of retention alone). */
async function floor(path: string, keep = false): Promise<number> {
  const kept: unknown[] = [];
  const decoder = new LineDecoder(
    (buf, start, end) => {
      try {
        const value: unknown = JSON.parse(buf.toString('utf8', start, end));
        if (keep) kept.push(value);
      } catch {
        // the floor only measures; romp reports bad lines
      }
    },
    () => {},
  );
  const handle = await open(path, 'r');
  const buffer = Buffer.allocUnsafe(MB);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    decoder.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
  }
  decoder.flush();
  await handle.close();
  return kept.length;
}

async function ours(path: string): Promise<number> {
  const { session } = await parseSession([path]);
  return session.turns.length;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function compare(label: string, files: string[], bytes: number): Promise<void> {
  const f: number[] = [];
  const k: number[] = [];
  const o: number[] = [];
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    f.push(await time(async () => { for (const p of files) await floor(p); }));
    globalThis.gc?.();
    k.push(await time(async () => { for (const p of files) await floor(p, true); }));
    globalThis.gc?.();
    o.push(await time(async () => { for (const p of files) await ours(p); }));
  }
  const [fm, km, om] = [median(f), median(k), median(o)];
  const rate = (ms: number): string => `${((bytes / MB) / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`${label}: ${(bytes / MB).toFixed(1)} MB in ${files.length} files`);
  console.log(`  floor (split + JSON.parse)  ${fm.toFixed(0)} ms  ${rate(fm)}`);
  console.log(`  floor + keeping every value  ${km.toFixed(0)} ms  ${rate(km)}  = ${(km / fm).toFixed(2)}x the floor`);
  console.log(`  romp parseSession            ${om.toFixed(0)} ms  ${rate(om)}  = ${(om / fm).toFixed(2)}x the floor (target <= 1.3x)`);
}

/** In a child process: parse one file and print the peak resident set in bytes. */
async function peakChild(path: string): Promise<void> {
  await ours(path);
  const status = await (await open('/proc/self/status', 'r')).readFile('utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  console.log(kb * 1024);
}

/** A generated transcript of `mb` MB in the temp folder, made once and kept for later runs. */
async function generatedFile(mb: number): Promise<{ path: string; size: number }> {
  const path = join(tmpdir(), `romp-bench-${mb}mb.jsonl`);
  if (!existsSync(path) || statSync(path).size < mb * MB) {
    process.stdout.write(`generating a ${mb} MB transcript… `);
    await generateTranscript(path, mb * MB);
    console.log('done');
  }
  return { path, size: statSync(path).size };
}

/** A transcript over V8's ~512 MB string limit: parsed once in a child process, time and peak memory. */
async function beyondStringLimit(): Promise<void> {
  const { path: huge, size } = await generatedFile(600);
  const start = process.hrtime.bigint();
  const peak = Number(execFileSync(process.execPath, [HERE, '--peak', huge]).toString().trim());
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`beyond the string limit: ${(size / MB).toFixed(0)} MB parsed in ${(ms / 1000).toFixed(1)} s (child process, with start-up), peak memory ${(peak / MB).toFixed(0)} MB = ${(peak / size).toFixed(2)}x the file`);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === '--peak') return peakChild(process.argv[3] ?? '');
  if (process.argv[2] === '--stream') return benchStream();
  if (process.argv[2] === '--ls') return benchLs();
  if (process.argv[2] === '--watch') return benchWatch();
  if (process.argv[2] === '--usage') return benchUsage();
  const corpus = resolve(HERE, '../../../../shared/corpus/transcripts');
  if (existsSync(corpus)) {
    const files = walk(corpus);
    await compare('corpus', files, files.reduce((n, p) => n + statSync(p).size, 0));
  }
  const { path: big, size } = await generatedFile(200);
  await compare('generated', [big], size);
  const peak = Number(execFileSync(process.execPath, [HERE, '--peak', big]).toString().trim());
  const baseline = Number(execFileSync(process.execPath, ['-e', "console.log(Number(/VmHWM:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1])*1024)"]).toString().trim());
  console.log(`  peak memory ${(peak / MB).toFixed(0)} MB (node alone ${(baseline / MB).toFixed(0)} MB) = ${(peak / size).toFixed(2)}x the file (target <= 3x)`);
  await beyondStringLimit();
  benchStream();
  await benchLs();
  await benchWatch();
  await benchUsage();
}

await main();
