// The review renderer: a summary, a chart of the cost over the game, and a stepper
// through every decision (the table as the seat saw it, the played action against the
// ranking). Used by review.html (the review computed in the browser) and inlined by
// `host-trainer review --html` (the review computed by the CLI). Needs tiles.js.
'use strict';

var SEAT_NAMES = ['East', 'South', 'West', 'North'];

// The tile an action string names (`discard 5p`, `riichi 0p` → `5p`), if any.
function actionTile(a) {
  var m = /(?:discard|riichi|kan) ([0-9][mpsz])$/.exec(a || '');
  return m ? m[1] : null;
}

function costUnit(review) {
  return review.ranking === 'search' ? 'points/hand' : 'value score';
}

function fmt(x, digits) {
  return x === null || x === undefined ? '–' : Number(x).toFixed(digits);
}

// The table of one decision.
function tableHtml(v, played, best) {
  var rows = [];
  for (var s = 0; s < v.players; s++) {
    var wind = SEAT_NAMES[(s - v.dealer + v.players) % v.players];
    var discards = (v.discards[s] || []).map(function (d) {
      return tileSvg(d.tile, { cls: (d.claimed ? 'claimed ' : '') + (d.riichi ? 'riichi' : '') });
    }).join('');
    var melds = (v.melds[s] || []).map(function (m) {
      return '<span class="meld">' + m.map(function (t) { return tileSvg(t, { cls: 'small' }); }).join('') + '</span>';
    }).join('');
    rows.push('<div class="seat' + (s === v.seat ? ' me' : '') + '"><div class="who">' + wind + ' · seat ' + s +
      ' · ' + v.scores[s] + '</div><div class="river">' + (discards || '<span class="none">no discards</span>') +
      '</div><div class="melds">' + melds + '</div></div>');
  }
  var playedTile = actionTile(played), bestTile = actionTile(best);
  var markedPlayed = false, markedBest = false;
  var hand = splitTiles(v.hand).map(function (t) {
    var plain = t[0] === '0' ? '5' + t[1] : t;
    var cls = '';
    if (playedTile && !markedPlayed && (t === playedTile || plain === playedTile)) { cls += ' played'; markedPlayed = true; }
    if (bestTile && !markedBest && (t === bestTile || plain === bestTile) && bestTile !== playedTile) { cls += ' best'; markedBest = true; }
    return tileSvg(t, { cls: cls.trim() });
  }).join('');
  var dora = v.dora && v.dora.length ? '<span class="label">dora indicators</span>' + v.dora.map(function (t) { return tileSvg(t, { cls: 'small' }); }).join('') : '';
  return '<div class="table">' + rows.join('') + '</div><div class="info">' + dora +
    '<span class="label">wall ' + v.live_wall + '</span>' + (v.claim ? '<span class="label">answering ' + tileSvg(v.claim, { cls: 'small' }) + '</span>' : '') +
    '</div><div class="hand" aria-label="hand">' + hand + '</div>';
}

// The cumulative cost over the decisions as an SVG line chart.
function costChart(review) {
  var rows = review.rows, w = 720, h = 160, pad = 30;
  if (!rows.length) return '<p class="none">No decision to chart.</p>';
  var total = 0, pts = [], max = 0;
  rows.forEach(function (r) { total += r.agrees ? 0 : Math.max(0, r.cost || 0); pts.push(total); });
  max = Math.max(total, 1e-9);
  var step = (w - 2 * pad) / Math.max(rows.length - 1, 1);
  var line = pts.map(function (p, i) { return (pad + i * step).toFixed(1) + ',' + (h - pad - (p / max) * (h - 2 * pad)).toFixed(1); }).join(' ');
  var marks = rows.map(function (r, i) {
    return r.agrees ? '' : '<circle class="miss" data-index="' + i + '" cx="' + (pad + i * step).toFixed(1) + '" cy="' + (h - pad - (pts[i] / max) * (h - 2 * pad)).toFixed(1) + '" r="3"><title>' + esc(r.kyoku + ' step ' + r.step + ': ' + r.played + ' (best ' + r.best + ')') + '</title></circle>';
  }).join('');
  return '<svg class="chart" viewBox="0 0 ' + w + ' ' + h + '" role="img" aria-label="cumulative cost"><line x1="' + pad + '" y1="' + (h - pad) + '" x2="' + (w - pad) + '" y2="' + (h - pad) + '" class="axis"/><line x1="' + pad + '" y1="' + pad + '" x2="' + pad + '" y2="' + (h - pad) + '" class="axis"/>' +
    '<text x="' + pad + '" y="' + (pad - 8) + '" class="tick">' + fmt(max, 2) + ' ' + costUnit(review) + '</text><text x="' + (w - pad) + '" y="' + (h - 8) + '" class="tick" text-anchor="end">decision ' + rows.length + '</text>' +
    '<polyline points="' + line + '" class="cost"/>' + marks + '</svg>';
}

// Renders `review` (a `Review` as JSON) into `el`.
function showReview(el, review) {
  var rows = review.rows, at = 0;
  var lost = rows.reduce(function (s, r) { return s + (r.agrees ? 0 : Math.max(0, r.cost || 0)); }, 0);
  var rate = review.decisions ? (100 * review.agreements / review.decisions).toFixed(1) : '0.0';
  var byHand = {};
  rows.forEach(function (r) { var k = byHand[r.kyoku] || (byHand[r.kyoku] = { n: 0, agree: 0, cost: 0 }); k.n++; if (r.agrees) k.agree++; else k.cost += Math.max(0, r.cost || 0); });
  var handRows = Object.keys(byHand).map(function (k) { var x = byHand[k]; return '<tr><td>' + esc(k) + '</td><td>' + x.n + '</td><td>' + x.agree + '</td><td>' + fmt(x.cost, 3) + '</td></tr>'; }).join('');
  el.innerHTML = '<header><h1>Review of ' + esc(review.player || ('seat ' + review.seat)) + '</h1><p class="sub">' + esc(review.file) +
    ' · ranked by ' + esc(review.ranking) + '</p></header><section class="summary"><p><b>' + review.decisions + '</b> decisions, <b>' + review.agreements +
    '</b> agree with the ' + esc(review.ranking) + ' ranking (' + rate + ' %); estimated loss <b>' + fmt(lost, 3) + '</b> ' + costUnit(review) + '.</p>' +
    costChart(review) + '<table class="hands"><thead><tr><th>hand</th><th>decisions</th><th>agree</th><th>loss</th></tr></thead><tbody>' + handRows + '</tbody></table></section>' +
    '<section class="stepper"><div class="nav"><button id="prev" type="button">◀ previous</button><span id="where"></span><button id="next" type="button">next ▶</button>' +
    '<button id="next-miss" type="button">next disagreement ▶▶</button></div><div id="decision"></div></section>';
  var box = el.querySelector('#decision'), where = el.querySelector('#where');
  function show(i) {
    if (!rows.length) { box.innerHTML = '<p class="none">This seat had no decision with a choice.</p>'; where.textContent = ''; return; }
    at = Math.max(0, Math.min(rows.length - 1, i));
    var r = rows[at];
    where.textContent = (at + 1) + ' / ' + rows.length + ' · ' + r.kyoku + ' step ' + r.step;
    var ranking = r.ranking.map(function (a, k) {
      var cls = a.action === r.played ? ' class="played"' : '';
      return '<tr' + cls + '><td>' + (k + 1) + '</td><td>' + esc(a.action) + '</td><td>' + fmt(a.probability, 3) + '</td><td>' + fmt(a.value_score, 3) + '</td><td>' + fmt(a.points, 0) + '</td></tr>';
    }).join('');
    box.innerHTML = '<div class="verdict ' + (r.agrees ? 'ok' : 'miss') + '">' + (r.agrees ? '✓ agrees' : '✗ disagrees') + ': played <b>' + esc(r.played) +
      '</b>, best <b>' + esc(r.best) + '</b>, rank ' + (r.rank || '–') + ' of ' + r.legal + (r.agrees || r.cost === null ? '' : ', cost ' + fmt(r.cost, 3) + ' ' + costUnit(review)) + '</div>' +
      tableHtml(r.view, r.played, r.best) + '<table class="ranking"><thead><tr><th>#</th><th>action</th><th>probability</th><th>value score</th><th>points</th></tr></thead><tbody>' + ranking + '</tbody></table>';
  }
  el.querySelector('#prev').onclick = function () { show(at - 1); };
  el.querySelector('#next').onclick = function () { show(at + 1); };
  el.querySelector('#next-miss').onclick = function () {
    for (var i = at + 1; i < rows.length; i++) if (!rows[i].agrees) return show(i);
  };
  Array.prototype.forEach.call(el.querySelectorAll('circle.miss'), function (c) { c.onclick = function () { show(+c.getAttribute('data-index')); }; });
  el.tabIndex = 0;
  el.onkeydown = function (e) { if (e.key === 'ArrowLeft') show(at - 1); if (e.key === 'ArrowRight') show(at + 1); };
  show(0);
}
