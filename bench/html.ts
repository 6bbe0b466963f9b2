/**
 * `npm run bench -- --html`: `romp html` on real-shaped data: every corpus session, and a 100 MiB session
 * made of copies of corpus sessions (`bench/replicate.ts`): build time (parse, then the read-backs and
 * rendering), page size against the transcript, cuts, parts (split as `romp html -o` splits); then,
 * with Debian's chromium, the time until the 100 MiB session's first part and its largest part are
 * interactive (the script has run).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { partFile } from '../src/cli/run-html.ts';
import { chromium } from 'playwright-core';
import { buildHtmlPage } from '../src/html/build-html-page.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { CORPUS, REPLICA_VERSION, replicateSession } from './replicate.ts';

const MB = 1024 * 1024;
const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

function sessions(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'subagents' ? [] : sessions(path);
    return name.endsWith('.jsonl') && !name.startsWith('agent-') ? [path] : [];
  });
}

async function page(
  path: string,
): Promise<{ parseMs: number; totalMs: number; bytes: number; cuts: number; parts: string[] }> {
  const start = process.hrtime.bigint();
  await parseSession([path]);
  const parseMs = ms(start);
  const again = process.hrtime.bigint();
  const { parts, diagnostics } = await buildHtmlPage([path], { partHref: (n) => basename(partFile('page.html', n)) });
  const bytes = parts.reduce((n, p) => n + Buffer.byteLength(p), 0);
  return {
    parseMs,
    totalMs: ms(again),
    bytes,
    cuts: diagnostics.filter((d) => d.code === 'HTML_TRUNCATED').length,
    parts,
  };
}

const load = (): string =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** Runs the HTML bench and prints its lines. */
export async function benchHtml(): Promise<void> {
  if (existsSync(CORPUS)) {
    const files = sessions(CORPUS);
    let input = 0;
    let output = 0;
    let time = 0;
    let cuts = 0;
    let split = 0;
    let slowest = { ms: 0, path: '' };
    for (const file of files) {
      const r = await page(file);
      input += statSync(file).size;
      output += r.bytes;
      time += r.totalMs;
      cuts += r.cuts;
      if (r.parts.length > 1) split++;
      if (r.totalMs > slowest.ms) slowest = { ms: r.totalMs, path: file };
    }
    console.log(
      `html corpus: ${files.length} sessions, ${(input / MB).toFixed(1)} MB of transcripts → ${(output / MB).toFixed(1)} MB of pages (${(output / input).toFixed(2)}x) in ${(time / 1000).toFixed(1)} s (${(input / MB / (time / 1000)).toFixed(1)} MB/s), ${cuts} cuts, ${split} split; slowest ${slowest.ms.toFixed(0)} ms (${slowest.path.slice(CORPUS.length + 1)})`,
    );
  }
  const big = join(tmpdir(), `romp-bench-html-100mb-v${REPLICA_VERSION}.jsonl`);
  if (!existsSync(big) || statSync(big).size < 100 * MB)
    await replicateSession(big, 100 * MB, 'be0c4a11-0000-4000-8000-000000000003');
  const size = statSync(big).size;
  const r = await page(big);
  const sizes = r.parts.map((p) => Buffer.byteLength(p));
  const largest = sizes.indexOf(Math.max(...sizes));
  console.log(
    `html 100 MB session: ${(size / MB).toFixed(0)} MB → ${r.parts.length} parts, ${(r.bytes / MB).toFixed(1)} MB (${(r.bytes / size).toFixed(2)}x; largest part ${((sizes[largest] ?? 0) / MB).toFixed(1)} MB), parse ${(r.parseMs / 1000).toFixed(1)} s, pages ${(r.totalMs / 1000).toFixed(1)} s (parse, both views when compacted, read-backs, render), ${r.cuts} cuts; ${load()}`,
  );
  if (!existsSync('/usr/bin/chromium')) return console.log('html time to interactive: skipped (no /usr/bin/chromium)');
  const dir = mkdtempSync(join(tmpdir(), 'romp-bench-html-'));
  r.parts.forEach((p, i) => writeFileSync(join(dir, partFile('page.html', i + 1)), p));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    for (const [what, n] of [
      ['first part', 1],
      ['largest part', largest + 1],
    ] as const) {
      const tab = await browser.newPage();
      const start = process.hrtime.bigint();
      await tab.goto(pathToFileURL(join(dir, partFile('page.html', n))).href, {
        waitUntil: 'domcontentloaded',
        timeout: 120_000,
      });
      await tab.waitForSelector('#controls:not([hidden])', { timeout: 120_000 });
      const interactive = ms(start);
      const timing = await tab.evaluate(() => {
        const t = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { dom: t.domInteractive, nodes: document.getElementsByTagName('*').length };
      });
      const searched = process.hrtime.bigint();
      await tab.fill('#q', 'zzqq');
      await tab.waitForFunction(() => document.getElementById('count')?.textContent !== '', undefined, {
        timeout: 120_000,
      });
      const searchMs = ms(searched);
      console.log(
        `html time to interactive in chromium, ${what} (${n} of ${r.parts.length}, ${((sizes[n - 1] ?? 0) / MB).toFixed(1)} MB, ${timing.nodes} elements): ${(interactive / 1000).toFixed(1)} s (script ran; domInteractive ${(timing.dom / 1000).toFixed(1)} s; target < 5 s); first search ${(searchMs / 1000).toFixed(1)} s (builds the MiniSearch index); ${load()}`,
      );
      await tab.close();
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true }); // 30 MB per run: never leave it behind
  }
}
