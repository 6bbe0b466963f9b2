/** `romp serve`'s search box: the form on `/`, the results page (escaped, each hit a link to its atom), no index,
 * `?at=`. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { test } from 'node:test';
import { indexPath, updateIndex } from '../../src/index-db/update-index.ts';
import { indexSearch } from '../../src/serve/index-search.ts';
import { timeFormat } from '../../src/cli/format-time.ts';
import { startViewer } from '../../src/serve/start-viewer.ts';
import { renderSearchResults } from '../../src/serve/render-search-results.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import type { SessionSearch } from '../../src/serve/session-search.ts';
import { ID, projectsWithSession, SECOND_TURN } from './fixtures.ts';

const get = async (url: string): Promise<{ status: number; text: string }> => {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
};

test('romp serve: / has a search box; without an index the search says to run romp index', async () => {
  const { dir } = projectsWithSession();
  const viewer = await startViewer({ projectsDir: dir, search: indexSearch(tempDir('romp-home-')) });
  try {
    const list = (await get(viewer.url)).text;
    assert.ok(
      list.includes(
        '<form class="bar" method="get" action="/search" role="search"><input type="search" name="q" value=""',
      ),
    );
    assert.match(list, /form-action &#39;self&#39;/);
    const answer = await get(`${viewer.url}search?q=${encodeURIComponent('first <b>')}`);
    assert.equal(answer.status, 200);
    assert.ok(answer.text.includes('<p class="cut" id="search-unavailable">search needs `romp index`</p>'));
    assert.ok(answer.text.includes('name="q" value="first &lt;b&gt;"'));
  } finally {
    await viewer.close();
  }
});

test('romp serve: the results are escaped, each hit a link to /s/<id>#<uuid>; ?at= serves the part holding the atom', async () => {
  const { dir, file } = projectsWithSession();
  appendFileSync(file, SECOND_TURN);
  const asked: string[] = [];
  const search: SessionSearch = (query, options) => {
    asked.push(`${query} ${options.limit} ${options.projectsDir === '' ? '' : 'dir'}`);
    return Promise.resolve({
      hits: [
        {
          session_id: ID,
          uuid: 'u2',
          turn: 2,
          t: Date.UTC(2026, 2, 1, 10, 0, 10),
          author: 'human',
          snippet: 'second <script>alert(1)</script> question',
          title: '"><img src=x onerror=alert(1)>',
          project: '-work-demo',
        },
      ],
    });
  };
  const viewer = await startViewer({ projectsDir: dir, search, partChars: 1, time: timeFormat('Asia/Tokyo') });
  try {
    const page = (await get(`${viewer.url}search?q=second`)).text;
    assert.deepEqual(asked, ['second 50 dir']);
    assert.ok(page.includes(`<p id="search-count">1 hit for “second”</p>`));
    assert.ok(
      page.includes(
        `<li class="hit-row"><a href="/s/${ID}#u2">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</a> <span class="meta">-work-demo · turn 2 · 2026-03-01 19:00 · human</span><div class="snippet">second &lt;script&gt;alert(1)&lt;/script&gt; question</div></li>`,
      ),
    );
    assert.doesNotMatch(page, /<script|<img/);
    // an empty query asks nothing
    assert.ok((await get(`${viewer.url}search?q=`)).text.includes('0 hits'));
    assert.equal(asked.length, 1);
    // the page is split one turn per part: u2 is in part 2, which ?at=u2 serves
    const at = (await get(`${viewer.url}s/${ID}?at=u2`)).text;
    assert.ok(at.includes('<b>part 2 of 2</b>') && at.includes('id="u2"'));
    assert.ok((await get(`${viewer.url}s/${ID}?at=nowhere`)).text.includes('<b>part 1 of 2</b>'));
  } finally {
    await viewer.close();
  }
});

test('romp serve: the box searches romp index (read-only): a hit links to its session page at its atom, the match marked', async () => {
  const { dir, file } = projectsWithSession();
  appendFileSync(file, SECOND_TURN);
  const home = tempDir('romp-home-');
  await updateIndex(indexPath(home), { projectsDir: dir, onDiagnostic: () => undefined });
  const viewer = await startViewer({ projectsDir: dir, search: indexSearch(home) });
  try {
    const page = (await get(`${viewer.url}search?q=second`)).text;
    assert.ok(page.includes('<p id="search-count">2 hits for “second”</p>'), page);
    assert.ok(page.includes(`<a href="/s/${ID}#u2">`));
    assert.ok(page.includes('<mark>second</mark> question'));
    assert.ok(
      (await get(`${viewer.url}search?q=answer+first`)).text.includes(
        `<p id="search-count">1 hit for “answer first”</p>`,
      ),
    );
    // a word found nowhere (the index then tries it as a substring): no hits
    assert.ok((await get(`${viewer.url}search?q=zzqq`)).text.includes('<p id="search-count">0 hits for “zzqq”</p>'));
  } finally {
    await viewer.close();
  }
});

test('romp serve: a hit in a thinking block links with ?open=thinking, which the page opens', () => {
  const hit = { session_id: ID, turn: 1, t: Date.UTC(2026, 2, 1, 10, 0, 1), author: 'assistant', snippet: 'mulling' };
  const page = renderSearchResults(
    'mulling',
    {
      hits: [
        { ...hit, uuid: 'k1', role: 'thinking' },
        { ...hit, uuid: 'a1', role: 'assistant' },
      ],
    },
    timeFormat('UTC'),
  );
  assert.deepEqual(
    [...page.matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]),
    ['/', `/s/${ID}?open=thinking#k1`, `/s/${ID}#a1`],
  );
});
