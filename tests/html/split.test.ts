/** A long session's page split into parts: where it is cut, how parts link, what the page and the diagnostics say. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partFile } from '../../src/cli/run-html.ts';
import { buildHtmlPage } from '../../src/html/build-html-page.ts';
import { linkParts } from '../../src/html/link-parts.ts';
import { splitTurns } from '../../src/html/split-turns.ts';
import { threeTurns } from './fixtures.ts';

test('splitTurns: whole turns, cut at a compaction past half a part, else before the turn that overflows', () => {
  assert.deepEqual(splitTurns([3, 3, 3, 3], [false, true, false, false], 10), [
    [0, 2],
    [2, 4],
  ]);
  assert.deepEqual(splitTurns([3, 3, 3, 3], [false, false, false, false], 10), [
    [0, 3],
    [3, 4],
  ]);
  // a compaction before half a part does not cut; a turn bigger than a part is a part of its own
  assert.deepEqual(splitTurns([3, 3, 20, 1], [true, false, false, false], 10), [
    [0, 2],
    [2, 3],
    [3, 4],
  ]);
  assert.deepEqual(splitTurns([3, 3], [false, true], 100), [[0, 2]]);
  assert.deepEqual(splitTurns([], [], 10), [[0, 0]]);
});

test('linkParts: a link to an id of another part goes to that part, a local one stays', () => {
  const pages = ['<a href="#x">x</a><a href="#y">y</a><a href="#z">z</a>', '<a href="#x">x</a>'];
  const anchored = ['<p id="x">', '<p id="y">'];
  assert.deepEqual(
    linkParts(pages, anchored, (n) => `s&${n}.html`),
    ['<a href="#x">x</a><a href="s&amp;2.html#y">y</a><a href="#z">z</a>', '<a href="s&amp;1.html#x">x</a>'],
  );
});

test('partFile: FILE, then FILE.partN beside it', () => {
  assert.equal(partFile('/out/s.html', 1), '/out/s.html');
  assert.equal(partFile('/out/s.html', 3), '/out/s.part3.html');
  assert.equal(partFile('/out/s', 2), '/out/s.part2.html');
});

test('buildHtmlPage splits into linked parts, each saying so, one HTML_SPLIT per part after the first', async () => {
  const path = threeTurns();
  const one = await buildHtmlPage([path]);
  assert.equal(one.parts.length, 1);
  assert.ok(!one.html.includes('class="parts"'));
  const { parts, diagnostics } = await buildHtmlPage([path], { partChars: 1, partHref: (n) => `p${n}.html` });
  assert.equal(parts.length, 3);
  assert.deepEqual(
    diagnostics.filter((d) => d.code === 'HTML_SPLIT').map((d) => d.message),
    ['page split: part 2 of 3 holds turns 2–2', 'page split: part 3 of 3 holds turns 3–3'],
  );
  const [p1, p2, p3] = parts as [string, string, string];
  // each part holds its own turns
  assert.ok(p1.includes('">first ask</div>') && !p1.includes('">second ask</div>'));
  assert.ok(p3.includes('<div class="prompt">third ask</div>') && !p3.includes('">first ask</div>'));
  // the timeline is whole in every part; its bars go to the part that holds their atom
  assert.ok(
    p1.includes('<a href="#u1">') && p1.includes('<a href="p2.html#u2">') && p1.includes('<a href="p3.html#u3">'),
  );
  assert.ok(p3.includes('<a href="p1.html#u1">') && p3.includes('<a href="#u3">'));
  // the compaction closes the second turn: its marker leads there from the other parts
  assert.ok(p2.includes('<div class="compaction" id="b1">') && p2.includes('<a href="#b1">'));
  assert.ok(p1.includes('<a href="p2.html#b1">') && p3.includes('<a href="p2.html#b1">'));
  // the rewound branch is in the part it forks from, its link local there
  assert.ok(p1.includes('<section class="branch" id="ux">') && p1.includes('<a href="#ux">'));
  assert.ok(!p2.includes('id="ux"') && !p3.includes('id="ux"'));
  // the split is visible: where this part is, and the way to the others
  assert.ok(
    p2.includes(
      '<b>part 2 of 3</b> · turns 2–2 · <a href="p1.html" rel="prev">← part 1</a> · <a href="p3.html" rel="next">part 3 →</a>',
    ),
  );
  assert.ok(p2.includes("split: the session's turns come to"));
  assert.equal(p2.split('<nav class="parts"').length, 3, 'at the top and the bottom');
});
