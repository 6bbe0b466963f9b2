/**
 * `romp html` pages in a real browser: Debian's chromium (`/usr/bin/chromium`, installed by .ci/run)
 * driven by playwright-core, headless, never a browser download. Skipped when chromium is absent; the
 * corpus test is skipped without ../shared/corpus.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { partFile } from '../../src/cli/run-html.ts';
import { buildHtmlPage } from '../../src/html/build-html-page.ts';
import { indexPath, updateIndex } from '../../src/index-db/update-index.ts';
import { indexSearch } from '../../src/serve/index-search.ts';
import { startViewer } from '../../src/serve/start-viewer.ts';
import { ID, projectsWithSession, SECOND_TURN } from '../serve/fixtures.ts';
import { assistant, compactBoundary, text, thinking, toolResult, toolUse, user } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { FEATURES, threeTurns, xssSession } from './fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const CORPUS = new URL(
  '../../../../shared/corpus/transcripts/marot__spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
  import.meta.url,
);
const skip = existsSync(CHROMIUM) ? false : 'no /usr/bin/chromium';
let browser: Browser | undefined;

/** Launches Debian's chromium as the house rules say (no sandbox: CI runs as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
}

before(async () => {
  if (skip === false) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Writes the page of `files` and opens it; every request the page makes is collected. */
async function open(
  files: string[],
  javaScriptEnabled = true,
): Promise<{ page: Page; url: string; requests: string[]; errors: string[] }> {
  const path = join(tempDir('romp-html-'), 'page.html');
  writeFileSync(path, (await buildHtmlPage(files)).html);
  const url = pathToFileURL(path).href;
  const page = await (browser as Browser).newPage({ javaScriptEnabled, viewport: { width: 1200, height: 800 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  return { page, url, requests, errors };
}

test(
  'browser: a corpus session: expand a call, follow a bar, search, switch the view, no request',
  { skip: skip || (existsSync(CORPUS) ? false : 'no corpus') },
  async () => {
    const { page, url, requests, errors } = await open([CORPUS.pathname]);
    // expand the first tool call not inside a group
    const chip = page.locator('#chat > article.turn > .atom > details.tool').first();
    await chip.locator('summary').click();
    assert.equal(await chip.evaluate((d) => (d as HTMLDetailsElement).open), true);
    assert.ok(await chip.locator('.tool-body').isVisible());
    // follow the third bar of the timeline to its segment's input
    const bar = page.locator('svg.timeline a').nth(2);
    const href = (await bar.getAttribute('href')) as string;
    await bar.locator('rect').click();
    assert.equal(await page.evaluate(() => location.hash), href);
    const top = await page.evaluate(
      (id) => document.getElementById(decodeURIComponent(id))?.getBoundingClientRect().top,
      href.slice(1),
    );
    assert.ok(top !== undefined && top >= 0 && top < 800, `target at ${top}`);
    // search for the last prompt's first word: the last turn is among the turns left, not all are
    const word = ((await page.locator('#chat > article.turn > .prompt').last().textContent()) ?? '')
      .trim()
      .split(/\s+/)[0] as string;
    await page.fill('#q', word);
    const visible = await page.$$eval('#chat > article.turn', (all) =>
      all.map((t) => !t.classList.contains('filtered-out')),
    );
    assert.equal(visible.at(-1), true);
    assert.ok(visible.some((shown) => !shown));
    await page.fill('#q', 'zzqq-no-such-word');
    assert.equal(await page.textContent('#count'), '0 of 4 turns');
    await page.fill('#q', '');
    // switch to the context view: what came before the compaction goes, and comes back
    const before = page.locator('.pre-context').first();
    assert.ok((await page.locator('.pre-context').count()) > 0);
    await page.click('label[for=view-context]');
    assert.equal(await before.isVisible(), false);
    await page.click('label[for=view-context]');
    assert.equal(await before.isVisible(), true);
    assert.deepEqual(requests, [url]);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'browser: in-page search through MiniSearch: words in any order, prefixes, a typo, Enter to the best turn',
  { skip },
  async () => {
    const { page, requests, url, errors } = await open([threeTurns()]);
    const shown = (): Promise<string[]> =>
      page.$$eval('#chat > article.turn:not(.filtered-out) .turn-head .n', (all) =>
        all.map((n) => n.textContent ?? ''),
      );
    // both words, in the other order than written: only the third turn holds "Third answer."
    await page.fill('#q', 'answer third');
    assert.deepEqual(await shown(), ['#3']);
    assert.equal(await page.textContent('#count'), '1 of 3 turns');
    await page.fill('#q', 'secnd');
    assert.deepEqual(await shown(), ['#2']);
    await page.fill('#q', 'ans');
    assert.deepEqual(await shown(), ['#1', '#2', '#3']);
    // Enter scrolls to the best match (a low window, so that there is room to scroll)
    await page.setViewportSize({ width: 1200, height: 300 });
    await page.fill('#q', 'third');
    await page.press('#q', 'Enter');
    const where = await page.evaluate(() => ({
      y: window.scrollY,
      top: document.getElementById('u3')?.getBoundingClientRect().top ?? -1,
    }));
    assert.ok(where.y > 0 && where.top >= 0 && where.top < 300, `best turn at ${JSON.stringify(where)}`);
    await page.fill('#q', 'zzqq');
    assert.deepEqual(await shown(), []);
    assert.deepEqual(requests, [url]);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('browser: without JavaScript, calls expand and the view switches', { skip }, async () => {
  const write = FEATURES['compaction'] as () => string[];
  const { page } = await open(write(), false);
  assert.equal(await page.locator('#controls').isVisible(), false);
  await page.locator('details.a-system summary').click();
  assert.equal(await page.locator('details.a-system .plain').isVisible(), true);
  assert.equal(await page.locator('#a1').isVisible(), true);
  await page.click('label[for=view-context]');
  assert.equal(await page.locator('#a1').isVisible(), false);
  assert.equal(await page.locator('#a2').isVisible(), true);
  await page.close();
});

test(
  'browser: a split page: a timeline bar opens the part that holds its atom, the nav leads back',
  { skip },
  async () => {
    const first = join(tempDir('romp-html-parts-'), 's.html');
    const { parts } = await buildHtmlPage([threeTurns()], {
      partChars: 1,
      partHref: (n) => basename(partFile(first, n)),
    });
    parts.forEach((p, i) => writeFileSync(partFile(first, i + 1), p));
    const page = await (browser as Browser).newPage({ viewport: { width: 1200, height: 800 } });
    try {
      await page.goto(pathToFileURL(first).href);
      assert.equal(await page.textContent('#parts-top nav b'), 'part 1 of 3');
      await page.locator('svg.timeline a[href="s.part3.html#u3"] rect').click();
      await page.waitForURL(/\/s\.part3\.html#u3$/);
      assert.equal(await page.locator('#u3').isVisible(), true);
      assert.equal(await page.textContent('#chat .prompt'), 'third ask');
      await page.locator('#parts-top a[rel=prev]').click();
      await page.waitForURL(/\/s\.part2\.html$/);
      assert.equal(await page.locator('#b1').count(), 1);
    } finally {
      await page.close();
    }
  },
);

test('browser: no script of the XSS corpus runs, the page requests nothing', { skip }, async () => {
  const { page, url, requests, errors } = await open([xssSession()]);
  await page.evaluate(() => {
    for (const d of Array.from(document.querySelectorAll('details'))) (d as HTMLDetailsElement).open = true;
    for (const el of Array.from(document.querySelectorAll('main *')))
      for (const type of ['mouseover', 'click', 'load', 'error']) el.dispatchEvent(new Event(type));
  });
  await page.keyboard.press('t');
  assert.equal(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), undefined);
  assert.equal(await page.title(), '</title><script>window.__xss=1</script> · romp');
  assert.deepEqual(requests, [url]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('browser: romp serve: a turn appended to the watched file appears in the open page', { skip }, async () => {
  const { dir, file } = projectsWithSession();
  const viewer = await startViewer({ projectsDir: dir });
  const page = await (browser as Browser).newPage();
  try {
    await page.goto(`${viewer.url}s/7d1e0000-aaaa-4000-8000-000000000001`);
    assert.equal(await page.locator('#chat > article.turn').count(), 1);
    await page.waitForSelector('body[data-live-ready]');
    appendFileSync(file, SECOND_TURN);
    await page.waitForSelector('#chat > article.turn:nth-of-type(2) .prompt');
    assert.equal(await page.textContent('#chat > article.turn:nth-of-type(2) .prompt'), 'second question');
  } finally {
    await page.close();
    await viewer.close();
  }
});

test(
  'browser: romp serve: the search box on / lists the hits of romp index; a hit opens the part of a split page that holds its atom',
  { skip },
  async () => {
    const { dir, file } = projectsWithSession();
    appendFileSync(file, SECOND_TURN);
    const home = tempDir('romp-home-');
    await updateIndex(indexPath(home), { projectsDir: dir, onDiagnostic: () => undefined });
    const viewer = await startViewer({ projectsDir: dir, partChars: 1, search: indexSearch(home) });
    const page = await (browser as Browser).newPage();
    try {
      await page.goto(viewer.url);
      await page.fill('input[name=q]', 'second');
      await page.press('input[name=q]', 'Enter');
      await page.waitForURL(/\/search\?q=second$/);
      assert.equal(await page.textContent('#search-count'), '2 hits for “second”');
      assert.equal(await page.textContent('.hit-row mark'), 'second');
      // the typed prompt ranks first; /s/<id>#u2 lands on part 1, which does not hold u2: the page asks for the part
      // that does
      assert.equal(await page.getAttribute('.hit-row a', 'href'), `/s/${ID}#u2`);
      await page.click('.hit-row a');
      await page.waitForURL(new RegExp(`/s/${ID}\\?at=u2#u2$`));
      assert.equal(await page.textContent('#parts-top nav b'), 'part 2 of 2');
      assert.equal(await page.locator('#u2').isVisible(), true);
    } finally {
      await page.close();
      await viewer.close();
    }
  },
);

/** The id of a served session long enough to scroll: 40 turns, a thinking block, a tool call, long inline code. */
const LONG_ID = '7d1e0000-dddd-4000-8000-000000000004';
const longLine = (record: Record<string, unknown>): string => `${JSON.stringify({ ...record, sessionId: LONG_ID })}\n`;

/** A projects folder holding the long session (turns 1–3 are tall, turn 30 thinks "zebrathought", turn 31 runs Bash,
 * turn 20 has 300 characters of inline code, a compaction closes it); returns the folder and the file. */
function projectsWithLongSession(): { dir: string; file: string } {
  const { dir } = projectsWithSession();
  const file = join(dir, '-work-demo', `${LONG_ID}.jsonl`);
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 1; i <= 40; i++) {
    lines.push(longLine(user(`u${i}`, parent, `question ${i}`, i * 10)));
    // the first turns are taller than a turn's estimated height (content-visibility), which a swap forgets
    const paragraphs = i <= 3 ? 30 : 2;
    const said =
      i === 20
        ? `see \`${'x'.repeat(300)}\``
        : Array.from({ length: paragraphs }, (_, n) => `Paragraph ${n + 1} of answer ${i}.`).join('\n\n');
    if (i === 30)
      lines.push(longLine(assistant(`k30`, `u${i}`, thinking('the zebrathought'), i * 10 + 1, { mid: 'mk' })));
    if (i === 31) {
      lines.push(
        longLine(
          assistant('a31t', 'u31', toolUse('t31', 'Bash', { command: 'ls' }), i * 10 + 1, {
            mid: 'm31t',
            stop: 'tool_use',
          }),
        ),
        longLine(user('r31', 'a31t', [toolResult('t31', 'listing')], i * 10 + 2)),
      );
    }
    const before = i === 30 ? 'k30' : i === 31 ? 'r31' : `u${i}`;
    lines.push(longLine(assistant(`a${i}`, before, text(said), i * 10 + 3, { mid: `m${i}`, stop: 'end_turn' })));
    parent = `a${i}`;
  }
  lines.push(longLine(compactBoundary('c1', 'a40', 450, { trigger: 'manual', preTokens: 1000 })));
  writeFileSync(file, lines.join(''));
  return { dir, file };
}

test(
  'browser: romp serve: a search hit in thinking opens it, under the header; a live update keeps the place and the open details',
  { skip },
  async () => {
    const { dir, file } = projectsWithLongSession();
    const viewer = await startViewer({ projectsDir: dir });
    const page = await (browser as Browser).newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const header = (): Promise<number> =>
        page.evaluate(() => (document.querySelector('.top') as HTMLElement).getBoundingClientRect().bottom);
      const at = (): Promise<{ y: number; top: number; thinking: boolean; tool: boolean; open: number }> =>
        page.evaluate(() => ({
          y: window.scrollY,
          top: (document.getElementById('k30') as HTMLElement).getBoundingClientRect().top,
          thinking: (document.querySelector('#k30 details.thinking') as HTMLDetailsElement).open,
          tool: (document.querySelector('#a31t details.tool') as HTMLDetailsElement).open,
          open: document.querySelectorAll('#chat details[open]').length,
        }));
      // the top of the page is shown first (its tall turns laid out), then the link to the hit is followed
      await page.goto(`${viewer.url}s/${LONG_ID}?open=thinking`);
      // the page has swapped once (the stream's ready) when this is set
      await page.waitForSelector('body[data-live-ready]');
      await page.evaluate(() => {
        location.hash = '#k30';
      });
      const edge = await header();
      const loaded = await at();
      assert.ok(edge > 60, `header ends at ${edge}`);
      assert.ok(loaded.y > 0 && loaded.top >= edge && loaded.top <= edge + 16, JSON.stringify({ edge, loaded }));
      assert.equal(loaded.thinking, true);
      assert.equal((await page.textContent('#k30 details.thinking .md'))?.trim(), 'the zebrathought');
      // the reader opens the tool call below; one user line is appended: both stay open, the hit stays put
      await page.evaluate(() => {
        (document.querySelector('#a31t details.tool') as HTMLDetailsElement).open = true;
      });
      const before = await at();
      assert.equal(before.open, 2);
      appendFileSync(file, longLine(user('u41', 'c1', 'question 41', 500)));
      await page.waitForSelector('#u41');
      const after = await at();
      assert.deepEqual(
        { thinking: after.thinking, tool: after.tool, open: after.open },
        { thinking: true, tool: true, open: 2 },
      );
      assert.ok(Math.abs(after.top - before.top) <= 1, JSON.stringify({ before, after }));
      // the last bar of the timeline (the compaction's mark) puts its target below the header, not under it
      const bar = page.locator('svg.timeline a').last();
      const href = (await bar.getAttribute('href')) as string;
      assert.equal(href, '#c1');
      await bar.locator('rect').click();
      const mark = await page.evaluate(() => (document.getElementById('c1') as HTMLElement).getBoundingClientRect());
      assert.ok(mark.top >= (await header()) && mark.bottom <= 800, `compaction at ${mark.top}`);
      if (process.env['ROMP_SHOTS'] !== undefined)
        await page.screenshot({ path: join(process.env['ROMP_SHOTS'], 'wide.png') });
    } finally {
      await page.close();
      await viewer.close();
    }
  },
);

test(
  'browser: romp serve at 390 px: the list fits, long inline code wraps, a link target is on screen',
  { skip },
  async () => {
    const { dir } = projectsWithLongSession();
    const viewer = await startViewer({ projectsDir: dir });
    const page = await (browser as Browser).newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(viewer.url);
      const list = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        table: (document.querySelector('table.sessions') as HTMLElement).getBoundingClientRect().right,
        cells: Array.from(document.querySelectorAll('table.sessions td')).map((td) => td.getBoundingClientRect().right),
      }));
      assert.ok(list.width <= 390 && list.table <= 390, JSON.stringify(list));
      assert.equal(list.cells.length, 12);
      assert.ok(
        list.cells.every((r) => r <= 390),
        JSON.stringify(list.cells),
      );
      await page.goto(`${viewer.url}s/${LONG_ID}#a20`);
      await page.waitForSelector('body[data-live-ready]');
      const where = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        code: (document.querySelector('#a20 code') as HTMLElement).getBoundingClientRect().right,
        top: (document.getElementById('a20') as HTMLElement).getBoundingClientRect().top,
        header: getComputedStyle(document.querySelector('.top') as HTMLElement).position,
      }));
      assert.ok(where.width <= 390 && where.code <= 390, JSON.stringify(where));
      assert.ok(where.top >= 0 && where.top < 100, JSON.stringify(where));
      assert.equal(where.header, 'static');
      if (process.env['ROMP_SHOTS'] !== undefined)
        await page.screenshot({ path: join(process.env['ROMP_SHOTS'], 'narrow.png') });
    } finally {
      await page.close();
      await viewer.close();
    }
  },
);
