// The page's side of the module's interface (see web/src/abi.rs): loads
// mahjong_web.wasm in a Web Worker (worker.js) and sends it JSON requests, so that a
// search's time budget never freezes the page. `mahjong.request({op: …})` answers a
// Promise of the result, or rejects with the module's error message.
'use strict';

var mahjong = (function () {
  var worker = null, next = 1, waiting = {};
  function start() {
    worker = new Worker('worker.js');
    worker.onmessage = function (e) {
      var w = waiting[e.data.id];
      delete waiting[e.data.id];
      if (!w) return;
      var a = e.data.answer;
      if (a && a.ok) w.resolve(a.result); else w.reject(new Error(a ? a.error : 'no answer'));
    };
    worker.onerror = function (e) {
      Object.keys(waiting).forEach(function (id) { waiting[id].reject(new Error('the engine failed to start: ' + (e.message || 'unknown error'))); delete waiting[id]; });
    };
  }
  return {
    request: function (req) {
      if (!worker) start();
      var id = next++;
      return new Promise(function (resolve, reject) {
        waiting[id] = { resolve: resolve, reject: reject };
        worker.postMessage({ id: id, request: JSON.stringify(req) });
      });
    },
  };
})();
