// Tiles drawn as SVG, made for this project (MIT OR Apache-2.0, like the code): a
// rounded ivory face, the suit's numeral and mark, honours as their characters.
// A plain script (no module) so that `review --html` can inline it.
'use strict';

var TILE_HONOURS = ['', '東', '南', '西', '北', '白', '發', '中'];
var TILE_LATIN = ['', 'E', 'S', 'W', 'N', 'Wh', 'G', 'R'];

// Circle positions (x, y in a 30×40 face) of the pin tiles 1–9.
var TILE_PIN_DOTS = [
  [],
  [[15, 20]],
  [[15, 11], [15, 29]],
  [[8, 9], [15, 20], [22, 31]],
  [[9, 11], [21, 11], [9, 29], [21, 29]],
  [[9, 10], [21, 10], [15, 20], [9, 30], [21, 30]],
  [[10, 9], [20, 9], [10, 20], [20, 20], [10, 31], [20, 31]],
  [[7, 8], [15, 11], [23, 14], [10, 24], [20, 24], [10, 33], [20, 33]],
  [[10, 7], [20, 7], [10, 16], [20, 16], [10, 25], [20, 25], [10, 34], [20, 34]],
  [[7, 9], [15, 9], [23, 9], [7, 20], [15, 20], [23, 20], [7, 31], [15, 31], [23, 31]],
];

// One tile in mpsz (`5p`, `0p` = red five, `7z`); `opts.cls` adds classes, `opts.title`
// a tooltip; an unknown name draws a face-down tile.
function tileSvg(name, opts) {
  opts = opts || {};
  var m = /^([0-9])([mpsz])$/.exec(name || '');
  var face = '';
  if (m) {
    var n = +m[1], suit = m[2], red = n === 0;
    if (red) n = 5;
    var ink = red ? '#d0021b' : null;
    if (suit === 'm') {
      // An Arabic numeral (readable without a CJK font) over 萬.
      face = '<text x="15" y="18" font-size="16" font-weight="700" text-anchor="middle" fill="' + (ink || '#1a1a1a') + '">' + n +
        '</text><text x="15" y="35" font-size="13" text-anchor="middle" fill="#c0392b">萬</text>';
    } else if (suit === 'p') {
      face = TILE_PIN_DOTS[n].map(function (d, i) {
        var c = ink || (n === 1 ? '#c0392b' : (i % 2 ? '#1f6fb2' : '#2e8b57'));
        return '<circle cx="' + d[0] + '" cy="' + d[1] + '" r="' + (n === 1 ? 8 : 3.4) + '" fill="none" stroke="' + c + '" stroke-width="2"/>';
      }).join('');
    } else if (suit === 's') {
      face = '<text x="15" y="19" font-size="16" font-weight="700" text-anchor="middle" fill="' + (ink || '#1a1a1a') + '">' + n +
        '</text><path d="M11 24h8M11 30h8M11 36h8M15 22v16" stroke="' + (ink || '#2e8b57') + '" stroke-width="2.4" fill="none"/>';
    } else if (n >= 1 && n <= 7) {
      var colour = n === 6 ? '#2e8b57' : n === 7 ? '#c0392b' : '#1a1a1a';
      face = n === 5
        ? '<rect x="7" y="8" width="16" height="24" rx="2" fill="none" stroke="#1f6fb2" stroke-width="2"/>'
        : '<text x="15" y="29" font-size="18" text-anchor="middle" fill="' + colour + '">' + TILE_HONOURS[n] + '</text>';
      // The Latin initial in a corner, for readers without a CJK font.
      face += '<text x="4" y="10" font-size="8" font-weight="700" fill="' + (n === 5 ? '#1f6fb2' : colour) + '">' + TILE_LATIN[n] + '</text>';
    }
    if (red) face += '<circle cx="25" cy="5" r="2.2" fill="#d0021b"/>';
  }
  var cls = 'tile' + (m ? '' : ' back') + (opts.cls ? ' ' + opts.cls : '');
  var title = opts.title !== undefined ? opts.title : (name || '');
  return '<svg class="' + cls + '" viewBox="0 0 30 40" width="30" height="40" role="img" aria-label="' + title +
    '" data-tile="' + (name || '') + '"><title>' + title + '</title>' +
    '<rect x="0.5" y="0.5" width="29" height="39" rx="4" fill="' + (m ? '#fbf7ec' : '#2f6f4f') + '" stroke="#8a7f66"/>' + face + '</svg>';
}

// Splits mpsz (`123m0p55z`) into tile names (`1m`, `2m`, `3m`, `0p`, `5z`, `5z`).
function splitTiles(mpsz) {
  var out = [], digits = '';
  for (var i = 0; i < (mpsz || '').length; i++) {
    var c = mpsz[i];
    if (c >= '0' && c <= '9') digits += c;
    else if ('mpsz'.indexOf(c) >= 0) {
      for (var k = 0; k < digits.length; k++) out.push(digits[k] + c);
      digits = '';
    }
  }
  return out;
}

// Tiles of mpsz as SVG, each with opts.
function tilesSvg(mpsz, opts) {
  return splitTiles(mpsz).map(function (t) { return tileSvg(t, opts); }).join('');
}

// Escapes text for HTML.
function esc(s) {
  return String(s === undefined || s === null ? '' : s).replace(/[&<>"']/g, function (c) {
    return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
  });
}
