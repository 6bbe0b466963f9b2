import { minisearchSource } from './minisearch-source.ts';

/**
 * The page's one script (allowed by the CSP by its hash; the page works without it): MiniSearch
 * (`minisearchSource`), then romp's own. It adds: filters by author, tool and errors; in-page search
 * over the turns' text through MiniSearch (every word must match, as a prefix, or with one typo in
 * five letters from words of five letters on; the index is built on the first search; Enter goes to the
 * best-ranked turn); keys `j` / `k` (next / previous
 * turn), `t` (open or close every thinking block), `/` (search); opening the `<details>` around the
 * target of a link, and with `?open=thinking` (a search hit in a thinking block) the thinking blocks of the target
 * (on a served page split into parts, a target that is in another part reloads it as
 * `?at=<uuid>`, which serves that part); the header's height as `--top-h` (the scroll margin of anchors: a
 * link's target is not left under the sticky header), measured again when the header resizes; and, on a page
 * served by `romp serve` (`<body data-live>`), live updates: each
 * server-sent event (and the stream's `ready`) re-fetches the page and swaps its timeline, chat and
 * branches, keeping what was open or closed (each `<details>` keyed by its id, a group by its first atom's,
 * any other by its nearest anchor and its rank under it) and where the reader was (the first anchor at the
 * header's edge stays where it was on the screen); `<body data-live-ready>` tells the stream is up and the page
 * swapped once.
 */
export const PAGE_SCRIPT: string = `${minisearchSource()}
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var controls = $('controls');
  if (controls) controls.hidden = false;
  var data = {};
  try { data = JSON.parse(($('romp-data') || {}).textContent || '{}'); } catch (e) { data = {}; }
  var toolSelect = $('f-tool');
  (data.tools || []).forEach(function (name) {
    var option = document.createElement('option');
    option.value = name; option.textContent = name;
    toolSelect.appendChild(option);
  });
  // the sticky header's height: anchors keep it clear (scroll-margin-top), j/k step below it
  var header = document.querySelector('.top');
  var topHeight = function () { return header && getComputedStyle(header).position === 'sticky' ? header.offsetHeight : 0; };
  var setTop = function () { document.documentElement.style.setProperty('--top-h', topHeight() + 'px'); };
  setTop();
  window.addEventListener('resize', setTop);
  if (header && window.ResizeObserver) new ResizeObserver(setTop).observe(header);
  var turns = function () { return Array.prototype.slice.call(document.querySelectorAll('#chat > article.turn')); };
  // the search index over the turns' text, built on the first search (and again after a live update)
  var index = null;
  // a turn's text, its text nodes joined by spaces (textContent glues "…first ask" to "First answer")
  var words = function (el) {
    var walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), parts = [];
    while (walk.nextNode()) parts.push(walk.currentNode.nodeValue);
    return parts.join(' ');
  };
  var search = function (q) {
    if (index === null) {
      index = new MiniSearch({ fields: ['text'], searchOptions: { prefix: true, combineWith: 'AND', fuzzy: function (term) { return term.length >= 5 ? 0.2 : false; } } });
      index.addAll(turns().map(function (turn, i) { return { id: i, text: words(turn) }; }));
    }
    return index.search(q).map(function (hit) { return hit.id; });
  };
  var best = null;
  var apply = function () {
    var q = $('q').value.trim();
    var author = $('f-author').value, tool = toolSelect.value, errors = $('f-errors').checked;
    var ranked = q ? search(q) : [];
    var hits = new Set(ranked);
    var shown = 0, all = turns();
    best = null;
    all.forEach(function (turn, i) {
      var ok = (!author || turn.dataset.author === author) &&
        (!tool || turn.dataset.tools.split(' ').indexOf(tool) !== -1) &&
        (!errors || turn.dataset.error === '1') &&
        (!q || hits.has(i));
      turn.classList.toggle('filtered-out', !ok);
      if (ok) shown++;
    });
    for (var r = 0; r < ranked.length && best === null; r++) if (!all[ranked[r]].classList.contains('filtered-out')) best = all[ranked[r]];
    $('count').textContent = shown === all.length ? '' : shown + ' of ' + all.length + (all.length === 1 ? ' turn' : ' turns');
  };
  ['q', 'f-author', 'f-tool', 'f-errors'].forEach(function (id) { $(id).addEventListener('input', apply); });
  $('q').addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && best) { e.preventDefault(); (best.querySelector('.turn-head') || best).scrollIntoView({ block: 'start' }); }
  });
  var reveal = function () {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    // a served page split into parts: the server knows which part holds the atom
    var thinking = /[?&]open=thinking(&|$)/.test(location.search);
    if (id && !el && document.body.dataset.live !== undefined && document.querySelector('nav.parts') && !/[?&]at=/.test(location.search)) {
      location.replace(location.pathname + '?at=' + encodeURIComponent(id) + (thinking ? '&open=thinking' : '') + location.hash);
      return;
    }
    if (!el) return;
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    if (thinking) Array.prototype.forEach.call(el.querySelectorAll('details.thinking'), function (d) { d.open = true; });
    var turn = el.closest('article.turn');
    if (turn) turn.classList.remove('filtered-out');
    el.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  var step = function (dir) {
    var visible = turns().filter(function (t) { return t.offsetParent !== null; });
    var y = topHeight() + 10;
    var i = dir > 0 ? visible.findIndex(function (t) { return t.getBoundingClientRect().top > y + 2; })
                    : visible.map(function (t) { return t.getBoundingClientRect().top < y - 2; }).lastIndexOf(true);
    var target = visible[i];
    if (target) target.scrollIntoView({ block: 'start' });
  };
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (e.key === 'j') step(1);
    else if (e.key === 'k') step(-1);
    else if (e.key === '/') { e.preventDefault(); $('q').focus(); }
    else if (e.key === 't') {
      var all = document.querySelectorAll('details.thinking');
      var open = !Array.prototype.some.call(all, function (d) { return d.open; });
      Array.prototype.forEach.call(all, function (d) { d.open = open; });
    }
  });
  if (document.body.dataset.live !== undefined) {
    var events = new EventSource(location.pathname.replace(/\\/$/, '') + '/events');
    // each <details> of the chat and branches by a key that survives a re-render
    var keyed = function (visit) {
      var rank = new Map();
      Array.prototype.forEach.call(document.querySelectorAll('#chat details, #branches-box details'), function (d) {
        var key;
        if (d.id) key = d.id;
        else if (d.classList.contains('group')) key = 'group ' + ((d.querySelector('[id]') || {}).id || '');
        else {
          var owner = d.parentElement.closest('[id]'), n = rank.get(owner) || 0;
          rank.set(owner, n + 1);
          key = (owner ? owner.id : '') + ' ' + n;
        }
        visit(key, d);
      });
    };
    // the first anchor at or below the header's edge, and where it is on the screen
    var place = function () {
      var edge = topHeight(), all = document.querySelectorAll('#chat [id], #branches-box [id]');
      for (var i = 0; i < all.length; i++) {
        var top = all[i].getBoundingClientRect().top;
        if (top >= edge - 1 && all[i].offsetParent !== null) return { id: all[i].id, top: top };
      }
      return null;
    };
    var refresh = function () {
      return fetch(location.pathname + location.search).then(function (r) { return r.text(); }).then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html');
        var open = new Map(), where = window.scrollY > 0 ? place() : null;
        keyed(function (key, d) { open.set(key, d.open); });
        ['timeline-box', 'chat', 'branches-box', 'title', 'parts-top', 'parts-bottom'].forEach(function (id) {
          var now = $(id), fresh = next.getElementById(id);
          if (now && fresh) now.innerHTML = fresh.innerHTML;
        });
        keyed(function (key, d) { if (open.has(key)) d.open = open.get(key); });
        index = null;
        apply();
        var el = where && document.getElementById(where.id);
        if (el) window.scrollBy(0, el.getBoundingClientRect().top - where.top);
      });
    };
    events.onmessage = refresh;
    // the watcher has read the file: what was written since the page was made comes now
    events.addEventListener('ready', function () { refresh().then(function () { document.body.dataset.liveReady = ''; }); });
  }
})();
`;
