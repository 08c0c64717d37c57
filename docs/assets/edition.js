/* Reader controls: show/hide witnesses and note classes, display script; choices persist in localStorage. */
(function () {
  "use strict";
  var KEY = "edition-reader";

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return {}; }
  }
  function save(prefs) {
    try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch (e) { /* private mode: no persistence */ }
  }

  function apply(prefs) {
    var hiddenW = prefs.witnesses || [], hiddenC = prefs.classes || [], script = prefs.script || "orig";
    document.querySelectorAll(".ed-parallel [data-w]").forEach(function (el) {
      el.hidden = hiddenW.indexOf(el.dataset.w) >= 0;
    });
    document.querySelectorAll("mark.v").forEach(function (el) {
      var shown = CLASSES.some(function (c) { return el.classList.contains("v-" + c) && hiddenC.indexOf(c) < 0; });
      el.classList.toggle("v-off", !shown);
    });
    document.querySelectorAll("li.ed-note").forEach(function (el) {
      el.hidden = hiddenC.indexOf(el.dataset.class) >= 0;
    });
    document.querySelectorAll(".ed-text .t").forEach(function (el) {
      if (el.dataset.o === undefined) el.dataset.o = el.textContent;
      el.textContent = script === "t" ? el.dataset.t : script === "s" ? el.dataset.s : el.dataset.o;
    });
    document.querySelectorAll("[data-witness]").forEach(function (el) { el.checked = hiddenW.indexOf(el.dataset.witness) < 0; });
    document.querySelectorAll("[data-class]").forEach(function (el) {
      if (el.tagName === "INPUT") el.checked = hiddenC.indexOf(el.dataset.class) < 0;
    });
    document.querySelectorAll("input[name=ed-script]").forEach(function (el) { el.checked = el.value === script; });
  }

  function toggle(list, value, show) {
    list = (list || []).filter(function (x) { return x !== value; });
    if (!show) list.push(value);
    return list.sort();
  }

  var CLASSES = ["substantive", "addition", "omission", "orthographic", "punctuation"];

  function init() {
    var controls = document.querySelector(".ed-controls");
    apply(load());
    if (!controls || controls.dataset.wired) return;
    controls.dataset.wired = "1";
    controls.addEventListener("change", function (ev) {
      var el = ev.target, prefs = load();
      if (el.dataset.witness) prefs.witnesses = toggle(prefs.witnesses, el.dataset.witness, el.checked);
      else if (el.dataset.class) prefs.classes = toggle(prefs.classes, el.dataset.class, el.checked);
      else if (el.name === "ed-script") prefs.script = el.value;
      save(prefs);
      apply(prefs);
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
