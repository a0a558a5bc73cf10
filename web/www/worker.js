// The Web Worker that owns the module: instantiates mahjong_web.wasm, answers each
// message {id, request} with {id, answer}. A trap (a panic in the module) is answered
// with the message the module's panic hook wrote, and the next request gets a fresh
// instance.
'use strict';

var instance = null;
var loading = null;

function load() {
  if (!loading) {
    var imports = { env: { mj_now_ms: function () { return performance.now(); } } };
    loading = fetch('mahjong_web.wasm')
      .then(function (r) { if (!r.ok) throw new Error('mahjong_web.wasm: HTTP ' + r.status); return r.arrayBuffer(); })
      .then(function (bytes) { return WebAssembly.instantiate(bytes, imports); })
      .then(function (m) { instance = m.instance; return instance; });
  }
  return loading;
}

function call(inst, text) {
  var ex = inst.exports;
  var bytes = new TextEncoder().encode(text);
  var ptr = ex.mj_alloc(bytes.length);
  new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
  var read = function (len) { return new TextDecoder().decode(new Uint8Array(ex.memory.buffer, ex.mj_answer_ptr(), len)); };
  try {
    return JSON.parse(read(ex.mj_request(ptr, bytes.length)));
  } catch (e) {
    loading = null; // a trap leaves the instance unusable: the next request starts afresh
    var message = 'the engine stopped: ' + e.message;
    try {
      var j = JSON.parse(read(ex.mj_answer_len()));
      if (j && j.error) message = j.error;
    } catch (_) {}
    return { ok: false, error: message };
  }
}

onmessage = function (e) {
  load().then(function (inst) {
    postMessage({ id: e.data.id, answer: call(inst, e.data.request) });
  }, function (err) {
    loading = null;
    postMessage({ id: e.data.id, answer: { ok: false, error: 'could not load the engine: ' + err.message } });
  });
};
