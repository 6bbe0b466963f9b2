/**
 * `npm run bench -- --html`: `romp html` on real-shaped data: every corpus session, and a 100 MiB session
 * made of copies of corpus sessions (`bench/replicate.ts`): build time (parse, then the read-backs and
 * rendering), page size against the transcript, cuts; then, with Debian's chromium, the time until the
 * 100 MiB page is interactive (its script has run).
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

async function page(path: string): Promise<{ parseMs: number; totalMs: number; bytes: number; cuts: number; html: string }> {
  const start = process.hrtime.bigint();
  await parseSession([path]);
  const parseMs = ms(start);
  const again = process.hrtime.bigint();
  const { html, diagnostics } = await buildHtmlPage([path]);
  return { parseMs, totalMs: ms(again), bytes: Buffer.byteLength(html), cuts: diagnostics.filter((d) => d.code === 'HTML_TRUNCATED').length, html };
}

/** Runs the HTML bench and prints its lines. */
export async function benchHtml(): Promise<void> {
  if (existsSync(CORPUS)) {
    const files = sessions(CORPUS);
    let input = 0;
    let output = 0;
    let time = 0;
    let cuts = 0;
    let slowest = { ms: 0, path: '' };
    for (const file of files) {
      const r = await page(file);
      input += statSync(file).size;
      output += r.bytes;
      time += r.totalMs;
      cuts += r.cuts;
      if (r.totalMs > slowest.ms) slowest = { ms: r.totalMs, path: file };
    }
    console.log(`html corpus: ${files.length} sessions, ${(input / MB).toFixed(1)} MB of transcripts → ${(output / MB).toFixed(1)} MB of pages (${(output / input).toFixed(2)}x) in ${(time / 1000).toFixed(1)} s (${(input / MB / (time / 1000)).toFixed(1)} MB/s), ${cuts} cuts; slowest ${slowest.ms.toFixed(0)} ms (${slowest.path.slice(CORPUS.length + 1)})`);
  }
  const big = join(tmpdir(), `romp-bench-html-100mb-v${REPLICA_VERSION}.jsonl`);
  if (!existsSync(big) || statSync(big).size < 100 * MB) await replicateSession(big, 100 * MB, 'be0c4a11-0000-4000-8000-000000000003');
  const size = statSync(big).size;
  const r = await page(big);
  console.log(`html 100 MB session: ${(size / MB).toFixed(0)} MB → page ${(r.bytes / MB).toFixed(1)} MB (${(r.bytes / size).toFixed(2)}x), parse ${(r.parseMs / 1000).toFixed(1)} s, page ${(r.totalMs / 1000).toFixed(1)} s (parse, both views when compacted, read-backs, render), ${r.cuts} cuts`);
  if (!existsSync('/usr/bin/chromium')) return console.log('html time to interactive: skipped (no /usr/bin/chromium)');
  const file = join(tmpdir(), `romp-bench-html-${process.pid}.html`);
  writeFileSync(file, r.html);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'] });
  try {
    const tab = await browser.newPage();
    const start = process.hrtime.bigint();
    await tab.goto(pathToFileURL(file).href, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await tab.waitForSelector('#controls:not([hidden])', { timeout: 120_000 });
    const interactive = ms(start);
    const load = await tab.evaluate(() => { const t = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming; return { dom: t.domInteractive, loaded: t.loadEventEnd }; });
    console.log(`html time to interactive in chromium: ${(interactive / 1000).toFixed(1)} s (script ran; domInteractive ${(load.dom / 1000).toFixed(1)} s, load ${(load.loaded / 1000).toFixed(1)} s; target < 5 s)`);
  } finally {
    await browser.close();
    rmSync(file, { force: true }); // 30 MB per run: never leave it behind
  }
}
