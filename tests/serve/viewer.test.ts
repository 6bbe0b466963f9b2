/** `romp serve`'s viewer: the list, a session page, live events, and what it refuses. */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { timeFormat } from '../../src/cli/format-time.ts';
import { startViewer } from '../../src/serve/start-viewer.ts';
import { user } from '../helpers/transcript.ts';
import { ID, line, projectsWithSession, SECOND_TURN } from './fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

test('romp serve: the list, the page, an event when a turn is appended; nothing outside, nothing written', async () => {
  const { dir, file } = projectsWithSession();
  const outside = join(tempDir('romp-outside-'), '7d1e0000-bbbb-4000-8000-000000000002.jsonl');
  writeFileSync(outside, line(user('x1', null, 'secret outside', 0)));
  symlinkSync(outside, join(dir, '-work-demo', '7d1e0000-bbbb-4000-8000-000000000002.jsonl'));
  // Tokyo is UTC+9, no summer time: 10:00:01Z reads 19:00
  const viewer = await startViewer({ projectsDir: dir, time: timeFormat('Asia/Tokyo') });
  try {
    assert.match(viewer.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const list = await (await fetch(viewer.url)).text();
    assert.ok(
      list.includes(
        `<a href="/s/${ID}"><code>7d1e0000</code></a></td><td class="project">/work/demo</td><td class="title">first question</td><td class="last">2026-03-01 19:00</td><td class="num turns">1</td>`,
      ),
    );
    assert.ok(list.includes('1 under the projects folder · times in Asia/Tokyo</span>'));
    assert.ok(list.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'));
    const page = await (await fetch(`${viewer.url}s/${ID}`)).text();
    assert.ok(page.includes('<div class="prompt">first question</div>'));
    assert.ok(page.includes('<time>2026-03-01 19:00</time>'));
    assert.ok(page.includes('<body data-live>'));
    assert.match(page, /connect-src &#39;self&#39;/);
    for (const path of [
      's/..%2F..%2Fetc%2Fpasswd',
      's/7d1e0000-bbbb-4000-8000-000000000002',
      'etc/passwd',
      `s/${ID}/../../x`,
    ])
      assert.equal((await fetch(viewer.url + path)).status, 404, path);
    assert.equal((await fetch(viewer.url, { method: 'POST', body: 'x' })).status, 405);
    // live: the event stream says a turn changed once lines are appended
    const events = await fetch(`${viewer.url}s/${ID}/events`);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value);
    assert.equal(received, 'event: ready\ndata: {}\n\n');
    appendFileSync(file, SECOND_TURN);
    received = '';
    while (!received.includes('\n\n')) received += decoder.decode((await reader.read()).value);
    assert.match(received, /^data: \{"changed":\[.*\]\}\n\n$/);
    const changed = (JSON.parse(received.slice('data: '.length)) as { changed: string[] }).changed;
    assert.ok(changed.some((id) => id.startsWith(`${ID}:`)));
    await reader.cancel();
    assert.ok(
      (await (await fetch(`${viewer.url}s/${ID}`)).text()).includes('<div class="prompt">second question</div>'),
    );
  } finally {
    await viewer.close();
  }
});

test('romp serve: a long session is split, ?part=N serves the others, a part that is not there is 404', async () => {
  const { dir, file } = projectsWithSession();
  appendFileSync(file, SECOND_TURN);
  const viewer = await startViewer({ projectsDir: dir, partChars: 1 });
  try {
    const first = await (await fetch(`${viewer.url}s/${ID}`)).text();
    assert.ok(
      first.includes('<b>part 1 of 2</b>') && first.includes(`<a href="/s/${ID}?part=2" rel="next">part 2 →</a>`),
    );
    const second = await (await fetch(`${viewer.url}s/${ID}?part=2`)).text();
    assert.ok(
      second.includes('<div class="prompt">second question</div>') &&
        !second.includes('<div class="prompt">first question</div>'),
    );
    assert.equal((await fetch(`${viewer.url}s/${ID}?part=3`)).status, 404);
  } finally {
    await viewer.close();
  }
});

test('romp serve: a unique id prefix redirects to the id, an ambiguous one is 404 listing the candidates', async () => {
  const { dir } = projectsWithSession();
  const other = '7d1e0000-cccc-4000-8000-000000000003';
  writeFileSync(
    join(dir, '-work-demo', `${other}.jsonl`),
    `${JSON.stringify({ ...user('c1', null, 'other \u202e question', 20), sessionId: other })}\n`,
  );
  const viewer = await startViewer({ projectsDir: dir });
  try {
    const unique = await fetch(`${viewer.url}s/7d1e0000-a?part=1`, { redirect: 'manual' });
    assert.equal(unique.status, 302);
    assert.equal(unique.headers.get('location'), `/s/${ID}?part=1`);
    const events = await fetch(`${viewer.url}s/7d1e0000-aa/events`, { redirect: 'manual' });
    assert.equal(events.headers.get('location'), `/s/${ID}/events`);
    const followed = await fetch(`${viewer.url}s/7d1e0000-a`);
    assert.equal(followed.url, `${viewer.url}s/${ID}`);
    assert.ok((await followed.text()).includes('<div class="prompt">first question</div>'));
    const ambiguous = await fetch(`${viewer.url}s/7d1e0000`);
    assert.equal(ambiguous.status, 404);
    const page = await ambiguous.text();
    assert.ok(page.includes('<code>7d1e0000</code> matches 2 sessions'));
    assert.ok(page.includes(`<a href="/s/${ID}">`) && page.includes(`<a href="/s/${other}">`));
    assert.ok(page.includes('<td class="title">other \\u202e question</td>'));
    assert.equal((await fetch(`${viewer.url}s/7d1e0001`)).status, 404);
  } finally {
    await viewer.close();
  }
});

test('romp serve: a rewrite that keeps size and mtime shows at once (the page is keyed on statStamp)', async () => {
  const { dir, file } = projectsWithSession();
  const viewer = await startViewer({ projectsDir: dir });
  try {
    const page = (): Promise<string> => fetch(`${viewer.url}s/${ID}`).then((r) => r.text());
    const mtime = new Date('2026-03-01T12:00:00Z');
    utimesSync(file, mtime, mtime);
    assert.ok((await page()).includes('<div class="prompt">first question</div>'));
    // same size, same mtime, another text: its ctime moved, so it is rendered again
    writeFileSync(file, readFileSync(file, 'utf8').replace('first question', 'FIRST QUESTION'));
    utimesSync(file, mtime, mtime);
    assert.ok((await page()).includes('<div class="prompt">FIRST QUESTION</div>'));
  } finally {
    await viewer.close();
  }
});
