// The review page: read a log (file, drop or paste), pick a player, review in the
// module, draw with review-view.js.
'use strict';

var $ = function (id) { return document.getElementById(id); };
var log = null, logName = 'pasted log';

function showError(e) {
  $('message').innerHTML = '<p class="error" role="alert">' + esc(e.message || e) + '</p>';
  $('status').textContent = '';
  document.body.setAttribute('data-state', 'error');
}

function useLog(text, name) {
  $('message').innerHTML = '';
  $('review').innerHTML = '';
  $('go').disabled = true;
  $('player').disabled = true;
  return mahjong.request({ op: 'log_players', log: text }).then(function (info) {
    log = text; logName = name;
    $('player').innerHTML = info.players.map(function (p, i) { return '<option value="' + i + '">' + esc(p || ('seat ' + i)) + '</option>'; }).join('');
    $('player').disabled = false;
    $('go').disabled = false;
    $('status').textContent = name + ': ' + info.hands + ' hands, ' + (info.rules || info.player_count + ' players');
    document.body.setAttribute('data-state', 'read');
  }, showError);
}

function review() {
  $('status').textContent = 'reviewing…';
  $('message').innerHTML = '';
  var t0 = performance.now();
  return mahjong.request({ op: 'review', log: log, seat: +$('player').value, ranker: $('ranker').value, file: logName }).then(function (r) {
    showReview($('review'), r);
    $('status').textContent = r.decisions + ' decisions reviewed in ' + Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-state', 'reviewed');
  }, showError);
}

function readFile(f) {
  var reader = new FileReader();
  reader.onload = function () { useLog(String(reader.result), f.name); };
  reader.onerror = function () { showError(new Error('could not read ' + f.name)); };
  reader.readAsText(f);
}

$('file').onchange = function () { if (this.files[0]) readFile(this.files[0]); };
$('read').onclick = function () { useLog($('paste').value, 'pasted log'); };
$('go').onclick = review;
var drop = $('drop');
drop.ondragover = function (e) { e.preventDefault(); drop.classList.add('over'); };
drop.ondragleave = function () { drop.classList.remove('over'); };
drop.ondrop = function (e) { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]); };
document.body.setAttribute('data-state', 'ready');
