// The 何切る page: a position from the form (or the URL's hash), its legal actions
// ranked by the module, the rollout search on request.
'use strict';

var $ = function (id) { return document.getElementById(id); };
var FIELDS = ['rules', 'seat', 'dealer', 'ranker', 'hand', 'dora', 'melds', 'budget'];

function players() { return /sanma/.test($('rules').value) ? 3 : 4; }

function fillSeats() {
  ['seat', 'dealer'].forEach(function (id) {
    var keep = $(id).value || '0';
    $(id).innerHTML = '';
    for (var s = 0; s < players(); s++) $(id).insertAdjacentHTML('beforeend', '<option value="' + s + '">' + s + '</option>');
    $(id).value = +keep < players() ? keep : '0';
  });
  var rows = $('discard-rows'), old = [];
  for (var s = 0; s < 4; s++) old.push(($('d' + s) || {}).value || '');
  rows.innerHTML = '';
  for (var s2 = 0; s2 < players(); s2++) {
    rows.insertAdjacentHTML('beforeend', '<label for="d' + s2 + '">Discards seat ' + s2 + '</label><input type="text" id="d' + s2 + '" style="min-width:120px" autocomplete="off">');
    $('d' + s2).value = old[s2];
  }
}

function palette() {
  var names = [];
  ['m', 'p', 's'].forEach(function (suit) { for (var n = 1; n <= 9; n++) names.push(n + suit); names.push('0' + suit); });
  for (var z = 1; z <= 7; z++) names.push(z + 'z');
  $('palette').innerHTML = names.map(function (t) { return tileSvg(t, { title: 'add ' + t }); }).join('');
  Array.prototype.forEach.call($('palette').querySelectorAll('svg'), function (svg) {
    svg.onclick = function () { $('hand').value = appendTile($('hand').value, svg.getAttribute('data-tile')); drawHand(); };
  });
}

// mpsz of the tiles `list` in their order (runs of one suit merged).
function joinTiles(list) {
  var out = '';
  list.forEach(function (t, i) { out += t[0]; if (i === list.length - 1 || list[i + 1][1] !== t[1]) out += t[1]; });
  return out;
}
function appendTile(mpsz, t) { return joinTiles(splitTiles(mpsz).concat([t])); }

function drawHand() {
  var tiles = splitTiles($('hand').value);
  $('hand-tiles').innerHTML = tiles.map(function (t, i) { return tileSvg(t, { title: 'remove ' + t }).replace('<svg ', '<svg data-i="' + i + '" '); }).join('') +
    (tiles.length ? '<span class="hint">' + tiles.length + ' tiles</span>' : '');
  Array.prototype.forEach.call($('hand-tiles').querySelectorAll('svg'), function (svg) {
    svg.onclick = function () { tiles.splice(+svg.getAttribute('data-i'), 1); $('hand').value = joinTiles(tiles); drawHand(); };
  });
}

function positionOf() {
  var n = players(), melds = [], discards = [];
  for (var s = 0; s < n; s++) { melds.push(s === +$('seat').value ? $('melds').value.trim() : ''); discards.push($('d' + s).value.trim()); }
  var p = { rules: $('rules').value, seat: +$('seat').value, dealer: +$('dealer').value, hand: $('hand').value.trim(), melds: melds, discards: discards };
  if ($('dora').value.trim()) p.dora = $('dora').value.trim();
  return p;
}

function saveHash() {
  var q = new URLSearchParams();
  FIELDS.forEach(function (f) { if ($(f).value) q.set(f, $(f).value); });
  for (var s = 0; s < players(); s++) if ($('d' + s).value) q.set('d' + s, $('d' + s).value);
  history.replaceState(null, '', '#' + q.toString());
}

function loadHash() {
  var q = new URLSearchParams(location.hash.slice(1));
  if (q.get('rules')) $('rules').value = q.get('rules');
  fillSeats();
  FIELDS.forEach(function (f) { if (q.get(f) !== null) $(f).value = q.get(f); });
  for (var s = 0; s < players(); s++) if (q.get('d' + s) !== null) $('d' + s).value = q.get('d' + s);
  drawHand();
  return !!q.get('hand');
}

function showError(e) {
  $('message').innerHTML = '<p class="error" role="alert">' + esc(e.message || e) + '</p>';
}

function fmt(x, d) { return x === null || x === undefined ? '–' : Number(x).toFixed(d); }

function actionCell(a) {
  var tile = a.tile ? tileSvg(a.tile, { cls: 'small' }) : '';
  return tile + ' ' + esc(a.kind.replace('_', ' ') + (a.tile ? ' ' + a.tile : ''));
}

function showAdvice(adv) {
  var rows = adv.actions.map(function (a, i) {
    var d = a.discard || {};
    return '<tr' + (i === 0 ? ' class="top"' : '') + '><td class="num">' + (i + 1) + '</td><td class="action">' + actionCell(a) + '</td><td class="num">' + fmt(a.probability, 3) +
      '</td><td class="num">' + fmt(d.value_score, 3) + '</td><td class="num">' + (d.shanten_after === undefined ? '–' : d.shanten_after) +
      '</td><td>' + (d.ukeire_types ? tilesSvg(d.ukeire_types, { cls: 'small' }) : '') + '</td><td class="num">' + (d.ukeire_tiles === undefined ? '–' : d.ukeire_tiles + ' (' + d.ukeire_type_count + ' kinds)') + '</td></tr>';
  }).join('');
  var source = adv.source.kind === 'model' ? 'model ' + esc(adv.source.path) + ' (' + esc(adv.source.sidecar.rules) + ')' : 'efficiency evaluator';
  $('result').innerHTML = '<p>Shanten now <b>' + adv.shanten + '</b> · ranked by the ' + source + (adv.value === null ? '' : ' · value ' + fmt(adv.value, 3)) +
    (adv.note ? '<br><span class="hint">' + esc(adv.note) + '</span>' : '') + '</p>' +
    '<table id="ranking"><thead><tr><th>#</th><th>action</th><th>probability</th><th>value score</th><th>shanten after</th><th>ukeire tiles</th><th>ukeire</th></tr></thead><tbody>' + rows + '</tbody></table>';
}

function showSearch(r) {
  var rows = r.candidates.map(function (c) {
    var half = 1.959964 * c.value.se;
    // Riichi presets score in points (thousands), the simple presets in units.
    var d = Math.abs(c.value.mean) < 100 && half < 100 ? 3 : 0;
    return '<tr><td>' + esc(c.label) + '</td><td class="num">' + fmt(c.value.mean, d) + '</td><td class="num">± ' + fmt(half, d) + '</td><td class="num">' + fmt(100 * c.win.mean, 1) +
      ' %</td><td class="num">' + fmt(100 * c.deal_in.mean, 1) + ' %</td><td class="num">' + c.value.n + '</td></tr>';
  }).join('');
  $('search-result').innerHTML = '<h2>Rollout search</h2><p>' + r.worlds + ' worlds in ' + fmt(r.elapsed_ms, 0) + ' ms</p>' +
    '<table id="search-table"><thead><tr><th>candidate</th><th>points/hand</th><th>95 % interval</th><th>win</th><th>deal-in</th><th>rollouts</th></tr></thead><tbody>' + rows + '</tbody></table>';
}

// Measures the search's prior for the rules in the background (once per preset), so
// that a search spends its whole budget searching.
var prepared = {};
function prepareSearch() {
  var rules = $('rules').value;
  if (prepared[rules]) return;
  prepared[rules] = mahjong.request({ op: 'prepare', rules: rules }).then(function () {
    document.body.setAttribute('data-search-ready', rules);
  }, function () { delete prepared[rules]; });
}

function run(op) {
  saveHash();
  $('message').innerHTML = '';
  $('status').textContent = op === 'search' ? 'searching…' : 'thinking…';
  var req = op === 'search'
    ? { op: 'search', position: positionOf(), budget_ms: +$('budget').value || 300 }
    : { op: 'advise', position: positionOf(), ranker: $('ranker').value };
  if (op !== 'search') $('search-result').innerHTML = '';
  var t0 = performance.now();
  return mahjong.request(req).then(function (r) {
    if (op === 'search') showSearch(r); else showAdvice(r);
    $('status').textContent = 'done in ' + Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-state', 'done');
    prepareSearch();
  }, function (e) {
    if (op !== 'search') $('result').innerHTML = '';
    showError(e);
    $('status').textContent = '';
    document.body.setAttribute('data-state', 'error');
  });
}

mahjong.request({ op: 'presets' }).then(function (p) {
  $('rules').innerHTML = p.presets.map(function (n) { return '<option>' + n + '</option>'; }).join('');
  $('rules').value = 'tenhou-4p';
  palette();
  var auto = loadHash();
  $('rules').onchange = function () { fillSeats(); };
  $('hand').oninput = drawHand;
  $('advise').onclick = function () { run('advise'); };
  $('search').onclick = function () { run('search'); };
  $('share').onclick = function () { saveHash(); if (navigator.clipboard) navigator.clipboard.writeText(location.href); $('status').textContent = 'link copied'; };
  $('hand').onkeydown = function (e) { if (e.key === 'Enter') run('advise'); };
  // A link pasted into this tab's address bar changes only the hash.
  window.onhashchange = function () { if (loadHash()) run('advise'); };
  document.body.setAttribute('data-state', 'ready');
  if (auto) run('advise');
}, function (e) { showError(e); document.body.setAttribute('data-state', 'error'); });
