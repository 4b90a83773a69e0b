// shogilab view: the one script of every page. It draws nothing the server did not send:
// the game page's frames (positions, as piece codes) and glyphs come from the page itself.
"use strict";

(function () {
  // Kanji or Latin letters, remembered across pages.
  function setScript(latin) {
    document.body.classList.toggle("latin", latin);
    try { localStorage.setItem("shogilab-script", latin ? "latin" : "kanji"); } catch (e) { /* file:// pages may have no storage */ }
  }
  var stored = null;
  try { stored = localStorage.getItem("shogilab-script"); } catch (e) { stored = null; }
  document.body.classList.toggle("latin", stored === "latin");
  var toggle = document.getElementById("script-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () { setScript(!document.body.classList.contains("latin")); });
  }

  var copy = document.getElementById("copy");
  if (copy) {
    copy.addEventListener("click", function () {
      var text = document.getElementById(copy.dataset.target);
      text.select();
      if (navigator.clipboard) { navigator.clipboard.writeText(text.value).catch(function () {}); }
      copy.textContent = "copied";
    });
  }

  var framesEl = document.getElementById("frames");
  if (!framesEl) { return; }
  var frames = JSON.parse(framesEl.textContent);
  var glyphs = JSON.parse(document.getElementById("glyphs").textContent);
  var handGlyphs = JSON.parse(document.getElementById("hand-glyphs").textContent);
  var board = document.getElementById("board");
  var moves = document.querySelectorAll("#moves .move");
  var graph = document.getElementById("graph");
  var cursor = document.getElementById("cursor");
  var ply = 0;

  // pieceClass is board.go's pieceClass: a piece code is its kind (bits 0-3, promoted kinds
  // from 7) and its owner (bit 4: Gote).
  function pieceClass(code) {
    if (!code) { return "pc"; }
    var c = "pc";
    if ((code >> 4) & 1) { c += " gote"; }
    if ((code & 15) >= 7) { c += " pro"; }
    return c;
  }

  function handHTML(counts) {
    var k = [], l = [];
    for (var i = 0; i < counts.length; i++) {
      if (!counts[i]) { continue; }
      var n = counts[i] > 1 ? String(counts[i]) : "";
      k.push(handGlyphs[i].k + n);
      l.push(handGlyphs[i].l + n);
    }
    var span = function (cls, text) { var s = document.createElement("span"); s.className = cls; s.textContent = text; return s; };
    var out = document.createDocumentFragment();
    if (!k.length) { out.appendChild(span("none", "none")); return out; }
    out.appendChild(span("k", k.join(" ")));
    out.appendChild(span("l", l.join(" ")));
    return out;
  }

  function show(p) {
    ply = Math.max(0, Math.min(frames.length - 1, p));
    var f = frames[ply];
    var last = f.m || [];
    for (var sq = 0; sq < 25; sq++) {
      var g = document.getElementById("pc" + sq);
      var code = f.b[sq];
      var gl = code ? glyphs[code] : { k: "", l: "" };
      g.setAttribute("class", pieceClass(code));
      g.children[0].textContent = gl.k;
      g.children[1].textContent = gl.l;
      var rect = document.getElementById("sq" + sq);
      rect.setAttribute("class", last.indexOf(sq) >= 0 ? "sq last" : "sq");
    }
    var sente = document.querySelector("#hand-sente .hand-pieces");
    var gote = document.querySelector("#hand-gote .hand-pieces");
    sente.replaceChildren(handHTML(f.h[0]));
    gote.replaceChildren(handHTML(f.h[1]));
    board.dataset.sfen = f.s;
    document.getElementById("sfen").textContent = f.s;
    document.getElementById("ply-label").textContent = "ply " + ply + " of " + (frames.length - 1);
    moves.forEach(function (li) {
      var on = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", on);
      if (on && li.scrollIntoView) { li.scrollIntoView({ block: "nearest" }); }
    });
    if (cursor) {
      var x = Number(graph.dataset.left) + Number(graph.dataset.dx) * Math.max(ply - 0.5, 0);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    if (history.replaceState && location.protocol !== "file:") {
      history.replaceState(null, "", "#ply=" + ply);
    }
  }

  document.getElementById("to-start").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(ply - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(ply + 1); });
  document.getElementById("to-end").addEventListener("click", function () { show(frames.length - 1); });
  moves.forEach(function (li) {
    li.addEventListener("click", function () { show(Number(li.dataset.ply)); });
  });
  if (graph) {
    graph.addEventListener("click", function (ev) {
      var box = graph.getBoundingClientRect();
      var x = (ev.clientX - box.left) * graph.viewBox.baseVal.width / box.width;
      show(Math.round((x - Number(graph.dataset.left)) / Number(graph.dataset.dx) + 0.5));
    });
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.target && /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) { return; }
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: frames.length - 1 }[ev.key];
    if (to === undefined) { return; }
    ev.preventDefault();
    show(to);
  });
  var m = /^#ply=(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : 0);
})();
