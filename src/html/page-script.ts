/**
 * The page's one script (allowed by the CSP by its hash; the page works without it). It adds: filters
 * by author, tool and errors; in-page search over the turns' text; keys `j` / `k` (next / previous
 * turn), `t` (open or close every thinking block), `/` (search); opening the `<details>` around the
 * target of a link; and, on a page served by `romp serve` (`<body data-live>`), live updates: each
 * server-sent event (and the stream's `ready`) re-fetches the page and swaps its timeline, chat and
 * branches; `<body data-live-ready>` tells the stream is up.
 */
export const PAGE_SCRIPT: string = `(function () {
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
  var texts = new WeakMap();
  var textOf = function (el) {
    var t = texts.get(el);
    if (t === undefined) { t = el.textContent.toLowerCase(); texts.set(el, t); }
    return t;
  };
  var turns = function () { return Array.prototype.slice.call(document.querySelectorAll('#chat > article.turn')); };
  var apply = function () {
    var q = $('q').value.trim().toLowerCase();
    var author = $('f-author').value, tool = toolSelect.value, errors = $('f-errors').checked;
    var shown = 0, all = turns();
    all.forEach(function (turn) {
      var ok = (!author || turn.dataset.author === author) &&
        (!tool || turn.dataset.tools.split(' ').indexOf(tool) !== -1) &&
        (!errors || turn.dataset.error === '1') &&
        (!q || textOf(turn).indexOf(q) !== -1);
      turn.classList.toggle('filtered-out', !ok);
      if (ok) shown++;
    });
    $('count').textContent = shown === all.length ? '' : shown + ' of ' + all.length + ' turns';
  };
  ['q', 'f-author', 'f-tool', 'f-errors'].forEach(function (id) { $(id).addEventListener('input', apply); });
  var reveal = function () {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    var turn = el.closest('article.turn');
    if (turn) turn.classList.remove('filtered-out');
    el.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  var step = function (dir) {
    var visible = turns().filter(function (t) { return t.offsetParent !== null; });
    var y = 120;
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
    var refresh = function () {
      fetch(location.pathname + location.search).then(function (r) { return r.text(); }).then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html');
        ['timeline-box', 'chat', 'branches-box', 'title', 'parts-top', 'parts-bottom'].forEach(function (id) {
          var now = $(id), fresh = next.getElementById(id);
          if (now && fresh) now.innerHTML = fresh.innerHTML;
        });
        texts = new WeakMap();
        apply();
      });
    };
    events.onmessage = refresh;
    // the watcher has read the file: what was written since the page was made comes now
    events.addEventListener('ready', function () { refresh(); document.body.dataset.liveReady = ''; });
  }
})();
`;
