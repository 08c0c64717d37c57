/* The reader's side of the edition pages (no library; runs on every page through Material's document$).
 *
 * - Rows: only the rows where at least N of the shown witnesses have text (or all of them); rows a cell spans
 *   together are shown together.
 * - Filters: show/hide witnesses and note kinds (the marks of 異體 and 注文, listed apart after the apparatus, hidden
 *   until the reader asks), display script; kept in
 *   localStorage across pages, and restored from a cited URL (?w=A,B&s=t). A note is hidden when its kind is hidden, or when fewer than
 *   two of the sides it sets against each other (one, for a lacuna or an editor's note) are still shown;
 *   notes keep their numbers (their ids). A mark is shown while any of its notes is.
 * - Notes in place: activating a mark (click, tap, Enter) opens its notes beside it without leaving the table.
 * - Parallels: hovering or focusing a cell lights the cells of its row (spanning cells included), a mark
 *   every mark of the same notes.
 * - Citation: each row's 引 button copies title, episode, row, witnesses shown and a permanent URL, and says so
 *   under the button, in a status region screen readers announce.
 * - Search: results found by pasting too (Material listens for key-up only); ?h=phrase on a page highlights
 *   the whole phrase across marks and in either script (folding table: assets/edition-search.json).
 * - lang: a cell's lang follows the script it is displayed in.
 * - Register: the mentions of the register's entries are marked and link to them (off by default on a phone).
 * - Two witnesses compared: the reader picks two; the others stand aside and each row marks the letters where the
 *   two differ, compared as the collation compares them (script and variant forms folded, punctuation left out).
 */
(function () {
  "use strict";
  var KEY = "edition-reader";

  // A reader who has chosen nothing sees every kind of note but 異體 (巖/岩) and 注文 (a commentary one
  // edition prints and another lacks): counted in the conventions and one tick away, as editions say
  // 異體字不出校.
  var DEFAULTS = { kinds: ["commentary", "orthographic"] };
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || DEFAULTS; } catch (e) { return DEFAULTS; }
  }
  function save(prefs) {
    try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch (e) { /* private mode: no persistence */ }
  }
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function toggle(list, value, show) {
    list = (list || []).filter(function (x) { return x !== value; });
    if (!show) list.push(value);
    return list.sort();
  }

  /* --- the view carried by a URL (?w=shown,witnesses&s=script) --------------------------------------------- */

  function fromUrl(prefs) {
    var params = new URLSearchParams(location.search);
    var boxes = all("input[data-witness]");
    if (params.has("w") && boxes.length) {
      var shown = params.get("w").split(",");
      boxes.forEach(function (el) { prefs.witnesses = toggle(prefs.witnesses, el.dataset.witness, shown.indexOf(el.dataset.witness) >= 0); });
    }
    if (params.has("s") && ["orig", "t", "s"].indexOf(params.get("s")) >= 0) prefs.script = params.get("s");
    return prefs;
  }

  /* --- filters ---------------------------------------------------------------------------------------------- */

  function apply(prefs) {
    var hiddenW = prefs.witnesses || [], hiddenK = prefs.kinds || [], script = prefs.script || "orig";
    var table = document.querySelector(".ed-parallel");
    var pair = table ? comparing(prefs) : null;
    if (table) clearCompare(table);
    if (pair) {  // two witnesses compared: the others stand aside until the reader picks "—"
      hiddenW = all("input[data-witness]").map(function (el) { return el.dataset.witness; })
        .filter(function (s) { return pair.indexOf(s) < 0; });
    }
    all(".ed-parallel [data-w]").forEach(function (el) { el.hidden = hiddenW.indexOf(el.dataset.w) >= 0; });
    var shownNotes = {};
    all("li.ed-note[id]").forEach(function (el) {
      var sidesOn = true;
      if (table) {
        var need = +el.dataset.need || 1;
        var sides = el.dataset.sides.split("|").filter(function (side) {
          return side.split(" ").some(function (s) { return hiddenW.indexOf(s) < 0; });
        });
        sidesOn = sides.length >= need;
      }
      var show = sidesOn && hiddenK.indexOf(el.dataset.kind) < 0;
      // the table of forms lists its entries whatever kinds are ticked: the ticks light their marks in the text;
      // a reading text's 校勘記 lists every note, as its numbered marks stand in the text whatever is ticked
      el.hidden = el.closest(".ed-jiaokan") ? false : !(el.closest(".ed-forms") ? sidesOn : show);
      shownNotes[el.id] = show;
    });
    all("mark.v").forEach(function (el) {
      var ids = el.dataset.notes.split(" ");
      var known = ids.filter(function (id) { return id in shownNotes; });
      var on = known.length ? known.some(function (id) { return shownNotes[id]; }) : true;
      el.classList.toggle("v-off", !on);
    });
    all(".ed-text .t").forEach(function (el) {
      if (el.dataset.o === undefined) el.dataset.o = el.textContent;
      var text = script === "t" ? el.dataset.t : script === "s" ? el.dataset.s : el.dataset.o;
      if (el.textContent !== text) el.textContent = text;
    });
    all(".ed-text [lang], .ed-text[lang]").forEach(function (el) {
      if (el.dataset.lang === undefined) el.dataset.lang = el.getAttribute("lang");
      el.setAttribute("lang", script === "t" ? "zh-Hant" : script === "s" ? "zh-Hans" : el.dataset.lang);
    });
    if (table) showRows(table, hiddenW, prefs.speak || "0");
    register(prefs);
    if (table) compareRows(table, pair);
    all("select[data-cmp]").forEach(function (el) { el.value = pair ? pair[+el.dataset.cmp] : ((prefs.compare || [])[+el.dataset.cmp] || ""); });
    all(".ed-controls .ed-witnesses").forEach(function (el) { el.disabled = !!pair; });
    all("input[data-witness]").forEach(function (el) { el.checked = hiddenW.indexOf(el.dataset.witness) < 0; });
    all("select[data-speak]").forEach(function (el) { el.value = prefs.speak || "0"; });
    all("input[data-kind]").forEach(function (el) { el.checked = hiddenK.indexOf(el.dataset.kind) < 0; });
    all("input[name=ed-script]").forEach(function (el) { el.checked = el.value === script; });
    if (table) fit(table);
  }

  // Columns side by side while each has room for a few words (NARROW characters of its own size); else, and
  // on a phone, each row's witnesses stacked, each labelled: nineteen witnesses at 1366 px left each column
  // two characters a line, a text read downwards.
  var NARROW = 6;
  function fit(table) {
    var shown = all("thead th[data-w]:not([hidden])", table).length || 1;
    var em = parseFloat(getComputedStyle(table).fontSize);
    var column = (table.parentElement.clientWidth - 3.2 * em) / shown / em;  // 3.2 em: the row numbers' column
    table.classList.toggle("ed-stack", window.innerWidth <= 600 || column < NARROW);
  }
  var fitting = false;
  window.addEventListener("resize", function () {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(function () {
      fitting = false;
      var table = document.querySelector(".ed-parallel");
      if (table) fit(table);
    });
  });

  /* --- two witnesses compared, character by character -------------------------------------------------------- */

  // The pair the reader picked, when both are on this page and differ.
  function comparing(prefs) {
    var pair = prefs.compare || [];
    var here = all("input[data-witness]").map(function (el) { return el.dataset.witness; });
    return pair.length === 2 && pair[0] && pair[1] && pair[0] !== pair[1] &&
      here.indexOf(pair[0]) >= 0 && here.indexOf(pair[1]) >= 0 ? pair : null;
  }

  function clearCompare(table) {
    all("span.ed-c, span.ed-x", table).forEach(function (el) {
      var parent = el.parentNode;
      parent.replaceChild(document.createTextNode(el.textContent), el);
      parent.normalize();
    });
    all(".ed-cmp-sum", table).forEach(function (el) { el.remove(); });
    all(".ed-cmp-legend").forEach(function (el) { el.hidden = true; });
  }

  // The letters of cells as the collation compares them: script and variant forms folded (the page's data-fold
  // pairs, written by the site with the engine's Normaliser), punctuation left out. Each letter keeps its text
  // node and its place there, so the difference can be marked where the reader sees it (in either script).
  function letters(cells, fold, marks) {
    var out = [];
    cells.forEach(function (td) {
      var walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT, {
        acceptNode: function (n) {
          return n.parentElement.closest(".ed-alt, .ed-moved-link, mark.v-gap") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
        }
      });
      for (var node = walker.nextNode(); node; node = walker.nextNode()) {
        var shown = node.data, parent = node.parentElement;
        var original = parent.classList.contains("t") && parent.dataset.o !== undefined ? parent.dataset.o : shown;
        var chars = Array.from(original), at = 0, same = original.length === shown.length;
        chars.forEach(function (c) {
          var len = c.length, from = same ? at : Math.min(at, shown.length - 1);
          at += len;
          if (marks[c] || !c.trim()) return;
          out.push({ f: fold[c] || c, node: node, a: from, b: same ? from + len : from + 1 });
        });
      }
    });
    return out;
  }

  // Longest common subsequence of two folded letter lists: which letters of each side are matched.
  function matched(x, y) {
    var n = x.length, m = y.length, w = m + 1, table = new Uint16Array((n + 1) * w);
    for (var i = n - 1; i >= 0; i--) {
      for (var j = m - 1; j >= 0; j--) {
        table[i * w + j] = x[i].f === y[j].f ? table[(i + 1) * w + j + 1] + 1
          : Math.max(table[(i + 1) * w + j], table[i * w + j + 1]);
      }
    }
    var ops = [];  // "=" both, "x" only in x, "y" only in y
    for (i = 0, j = 0; i < n || j < m;) {
      if (i < n && j < m && x[i].f === y[j].f) { ops.push(["=", i++, j++]); }
      else if (j >= m || (i < n && table[(i + 1) * w + j] >= table[i * w + j + 1])) ops.push(["x", i++, -1]);
      else ops.push(["y", -1, j++]);
    }
    return ops;
  }

  // Each run of differences between two matched letters: changed where both sides have letters there, else an
  // addition to the side that has them. Returns the letters to mark, each with its class.
  function differences(x, y) {
    var ops = matched(x, y), marked = [], run = [];
    function flush() {
      var both = run.some(function (o) { return o[0] === "x"; }) && run.some(function (o) { return o[0] === "y"; });
      run.forEach(function (o) {
        marked.push({ letter: o[0] === "x" ? x[o[1]] : y[o[2]], cls: both ? "ed-c" : "ed-x" });
      });
      run = [];
    }
    ops.forEach(function (o) { if (o[0] === "=") flush(); else run.push(o); });
    flush();
    return marked;
  }

  function wrap(marked) {
    var byNode = new Map();
    marked.forEach(function (m) {
      if (!byNode.has(m.letter.node)) byNode.set(m.letter.node, []);
      byNode.get(m.letter.node).push([m.letter.a, m.letter.b, m.cls]);
    });
    byNode.forEach(function (ranges, node) {
      var merged = [];
      ranges.sort(function (p, q) { return p[0] - q[0]; }).forEach(function (r) {
        var last = merged[merged.length - 1];
        if (last && last[2] === r[2] && last[1] >= r[0]) last[1] = Math.max(last[1], r[1]);
        else if (!last || r[0] >= last[1]) merged.push(r.slice());
      });
      for (var k = merged.length - 1; k >= 0; k--) {  // from the end, so earlier offsets stay valid
        var r = merged[k], hit = node.splitText(r[0]);
        hit.splitText(r[1] - r[0]);
        var span = document.createElement("span");
        span.className = r[2];
        hit.parentNode.replaceChild(span, hit);
        span.appendChild(hit);
      }
    });
  }

  // Row by row (rows that a spanning cell of either witness ties together are one group), the letters of the two
  // witnesses compared; each group's first row number says how many letters differ.
  function compareRows(table, pair) {
    if (!pair) return;
    var fold = {}, marks = {}, f = Array.from(table.dataset.fold || "");
    for (var i = 0; i + 1 < f.length; i += 2) fold[f[i]] = f[i + 1];
    Array.from(table.dataset.marks || "").forEach(function (c) { marks[c] = true; });
    var rows = all("tbody tr", table), ranges = [];
    rows.forEach(function (tr, k) {
      all("td[data-w]:not(.ed-empty)", tr).forEach(function (td) {
        var side = pair.indexOf(td.dataset.w);
        if (side >= 0) ranges.push([k, k + (+td.getAttribute("rowspan") || 1), side, td]);
      });
    });
    ranges.sort(function (p, q) { return p[0] - q[0]; });
    var groups = [];
    ranges.forEach(function (r) {
      var g = groups[groups.length - 1];
      if (g && r[0] < g.end) { g.end = Math.max(g.end, r[1]); g.cells[r[2]].push(r[3]); }
      else { g = { start: r[0], end: r[1], cells: [[], []] }; g.cells[r[2]].push(r[3]); groups.push(g); }
    });
    groups.forEach(function (g) {
      var x = letters(g.cells[0], fold, marks), y = letters(g.cells[1], fold, marks), text;
      if (!x.length || !y.length) text = "僅" + pair[x.length ? 0 : 1];
      else if (x.length * y.length > 4000000) text = "過長未比";
      else {
        var marked = differences(x, y);
        wrap(marked);
        text = marked.length ? "異 " + marked.length : "同";
      }
      var sum = document.createElement("span");
      sum.className = "ed-cmp-sum";
      sum.textContent = text;
      sum.title = pair[0] + "、" + pair[1] + " 對照：" + (text === "同" ? "文字相同" : text);
      var head = rows[g.start].querySelector("th.ed-rowno");
      if (head) head.appendChild(sum);
    });
    all(".ed-cmp-legend").forEach(function (el) { el.hidden = false; });
  }

  /* --- register mentions: marked and linked, or (off) plain text that is no link --------------------------------- */

  // Off by default on a phone (the marks crowd a narrow column), on elsewhere, until the reader ticks or unticks.
  function registerOn(prefs) {
    if (typeof prefs.register === "boolean") return prefs.register;
    return !window.matchMedia("(max-width: 600px)").matches;
  }

  function register(prefs) {
    var on = registerOn(prefs);
    document.documentElement.classList.toggle("ed-reg-on", on);
    document.documentElement.classList.toggle("ed-reg-off", !on);
    all("a.ed-m").forEach(function (el) {
      if (on && el.dataset.href) { el.setAttribute("href", el.dataset.href); delete el.dataset.href; }
      else if (!on && el.hasAttribute("href")) { el.dataset.href = el.getAttribute("href"); el.removeAttribute("href"); }
    });
    all("mark.v[data-reg]").forEach(function (el) { el.classList.toggle("ed-m-in", on); });
    all("input[data-register]").forEach(function (el) { el.checked = on; });
  }

  /* --- rows: where at least N witnesses speak, or the ones the machine is sure of ------------------------------ */

  // How many of the shown witnesses have text in each row (a spanning cell in every row it covers), and the
  // groups of rows that spanning cells tie together: a group is shown or hidden whole, or the table would tear.
  // "sure": the groups with no row the machine marked unsure (tr.ed-weak, its 「？」).
  function showRows(table, hiddenW, speak) {
    var rows = all("tbody tr", table), counts = rows.map(function () { return 0; }), ends = rows.map(function (_, i) { return i + 1; });
    rows.forEach(function (tr, i) {
      all("td[data-w]:not(.ed-empty)", tr).forEach(function (td) {
        var end = Math.min(rows.length, i + (+td.getAttribute("rowspan") || 1));
        ends[i] = Math.max(ends[i], end);
        if (hiddenW.indexOf(td.dataset.w) >= 0) return;
        for (var k = i; k < end; k++) counts[k]++;
      });
    });
    var shown = all("input[data-witness]").length - hiddenW.length;
    var sure = speak === "sure", need = speak === "all" ? Math.max(shown, 1) : +speak || 0;
    for (var start = 0; start < rows.length;) {
      var end = ends[start], on = false, weak = false;
      for (var k = start; k < end; k++) {
        end = Math.max(end, ends[k]);
        on = on || counts[k] >= need;
        weak = weak || rows[k].classList.contains("ed-weak");
      }
      if (sure) on = !weak;
      for (k = start; k < end; k++) {
        rows[k].hidden = !on;
        var square = document.querySelector('.ed-strip a[href="#' + rows[k].id + '"]');
        if (square) square.hidden = !on;  // the strip above the table lists the rows that are there
      }
      start = end;
    }
  }

  /* --- notes in place ---------------------------------------------------------------------------------------- */

  var pop = null, opener = null;

  function closePop(restore) {
    if (!pop || pop.hidden) return;
    pop.hidden = true;
    if (restore && opener) opener.focus();
    opener = null;
  }

  function openPop(mark, link) {
    if (!pop) {
      pop = document.createElement("div");
      pop.className = "ed-pop md-typeset";
      pop.setAttribute("role", "dialog");
      pop.setAttribute("aria-label", "校記");
      pop.tabIndex = -1;
      pop.innerHTML = '<div class="ed-pop-head"><span>校記</span><button type="button" class="ed-pop-close" aria-label="關閉校記">×</button></div><ol class="ed-notes"></ol>';
      pop.querySelector(".ed-pop-close").addEventListener("click", function () { closePop(true); });
      pop.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closePop(true); });
      document.body.appendChild(pop);
    }
    var list = pop.querySelector("ol");
    list.innerHTML = "";
    mark.dataset.notes.split(" ").forEach(function (id) {
      var li = document.getElementById(id);
      if (!li) return;
      var copy = li.cloneNode(true);
      copy.removeAttribute("id");
      copy.hidden = false;
      all("[id]", copy).forEach(function (el) { el.removeAttribute("id"); });
      all(".ed-back", copy).forEach(function (el) { el.remove(); });
      var no = copy.querySelector(".ed-no");
      if (no) no.innerHTML = '<a href="#' + id + '" title="在校記列表中">' + no.textContent + "</a>";
      list.appendChild(copy);
    });
    if (mark.dataset.reg && document.documentElement.classList.contains("ed-reg-on")) {
      var entry = document.createElement("li");
      entry.className = "ed-pop-reg";
      var go = document.createElement("a");
      go.href = mark.dataset.reg;
      go.textContent = mark.dataset.regName;
      entry.append("索引：", go);
      list.appendChild(entry);
    }
    pop.hidden = false;
    // Beside the text it annotates, never over it: under the mark's row, or above it, whichever is on screen;
    // where a row is taller than the screen (a phone stacks its witnesses), under or above the mark's own cell;
    // on a witness page, under or above the mark's line.
    var r = link.getBoundingClientRect(), width = pop.offsetWidth, height = pop.offsetHeight;
    var vw = document.documentElement.clientWidth, header = document.querySelector(".md-header");
    var ceiling = header ? header.getBoundingClientRect().bottom : 0;
    var boxes = [link.closest("tr"), link.closest("td"), link].filter(Boolean).map(function (el) { return el.getBoundingClientRect(); });
    var top = null;
    boxes.some(function (b) {
      if (b.bottom + 6 + height <= window.innerHeight) top = b.bottom + 6;
      else if (b.top - 6 - height >= ceiling) top = b.top - 6 - height;
      return top !== null;
    });
    if (top === null) top = r.bottom + 6;
    pop.style.left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + vw - width - 8)) + "px";
    pop.style.top = (top + window.scrollY) + "px";
    opener = link;
    pop.focus({ preventScroll: true });
  }

  /* --- parallels ------------------------------------------------------------------------------------------- */

  function rowRanges(table) {
    var ranges = new Map();
    all("tbody tr", table).forEach(function (tr, i) {
      all("td", tr).forEach(function (td) { ranges.set(td, [i, i + (+td.getAttribute("rowspan") || 1)]); });
    });
    return ranges;
  }

  function lightRow(table, ranges, cell) {
    all(".ed-row-hl", table).forEach(function (el) { el.classList.remove("ed-row-hl"); });
    if (!cell) return;
    var own = ranges.get(cell);
    ranges.forEach(function (range, td) {
      if (td !== cell && range[0] < own[1] && own[0] < range[1]) td.classList.add("ed-row-hl");
    });
  }

  function lightMarks(mark) {
    all("mark.ed-hl").forEach(function (el) { el.classList.remove("ed-hl"); });
    if (!mark) return;
    var ids = mark.dataset.notes.split(" ");
    all("mark.v").forEach(function (el) {
      if (el !== mark && el.dataset.notes.split(" ").some(function (id) { return ids.indexOf(id) >= 0; })) el.classList.add("ed-hl");
    });
  }

  /* --- citation ---------------------------------------------------------------------------------------------- */

  var liveTimer = null;

  // The status region is in the page before anything is said in it: screen readers announce changes to a
  // live region they already know, not one that appears with its text.
  function liveRegion() {
    var live = document.querySelector(".ed-live");
    if (!live) {
      live = document.createElement("div");
      live.className = "ed-live";
      live.setAttribute("role", "status");
      live.setAttribute("aria-live", "polite");
      document.body.appendChild(live);
    }
    return live;
  }

  function say(text, near) {
    var live = liveRegion();
    live.textContent = text;
    if (near) {
      var r = near.getBoundingClientRect(), vw = document.documentElement.clientWidth;
      live.style.left = Math.max(8, Math.min(r.left, vw - live.offsetWidth - 8)) + window.scrollX + "px";
      live.style.top = r.bottom + window.scrollY + 6 + "px";
    }
    clearTimeout(liveTimer);
    liveTimer = setTimeout(function () { live.textContent = ""; }, 8000);
  }

  function citation(button) {
    var tr = button.closest("tr");
    var no = tr.id.slice(1);
    var shown = all("input[data-witness]").filter(function (el) { return el.checked; }).map(function (el) { return el.dataset.witness; });
    var script = (load().script || "orig");
    var canonical = document.querySelector("link[rel=canonical]");
    var base = canonical ? canonical.href : location.href.split(/[?#]/)[0];
    var url = base + "?w=" + shown.join(",") + (script !== "orig" ? "&s=" + script : "") + "#r" + no;
    var parts = document.title.split(" - ");
    var site = parts.length > 1 ? parts[parts.length - 1] : "";
    var episode = (document.querySelector(".md-content h1") || {}).textContent || parts[0];
    return "《" + site + "》，" + episode.trim() + "，第 " + no + " 行（" + tr.dataset.row + "；傳本 " + shown.join("、") + "），" + url;
  }

  function copy(text, button) {
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      try { document.execCommand("copy"); } catch (e) { /* shown below anyway */ }
      area.remove();
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(fallback);
    else fallback();
    say("已複製引文：" + text, button);
  }

  /* --- search: paste, and the whole phrase highlighted on the page -------------------------------------------- */

  var fold = null;

  function folding(done) {
    if (fold) return done(fold);
    var config = document.getElementById("__config");
    var base = config ? JSON.parse(config.textContent).base : ".";
    fetch(new URL(base + "/assets/edition-search.json", location.href)).then(function (r) { return r.json(); })
      .then(function (data) {
        fold = {};
        var pairs = Array.from(data.fold || "");
        for (var i = 0; i + 1 < pairs.length; i += 2) fold[pairs[i]] = pairs[i + 1];
        done(fold);
      })
      .catch(function () { fold = {}; done(fold); });
  }

  function folded(text, map) {
    var out = "";
    for (var i = 0; i < text.length; i++) { var c = text[i]; out += (map[c] || c).toLowerCase(); }
    return out;
  }

  function highlight(phrase) {
    var root = document.querySelector(".md-content article") || document.querySelector(".md-content");
    if (!root || !phrase) return;
    folding(function (map) {
      var nodes = [], text = "";
      var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
        acceptNode: function (n) {
          return n.parentElement.closest(".ed-alt, .ed-controls, .ed-legend, .ed-strip, script, style, .headerlink")
            ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
        }
      });
      for (var n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push([n, text.length]); text += n.data; }
      var hay = folded(text, map), first = null;
      phrase.split(/\s+/).filter(Boolean).forEach(function (part) {
        var needle = folded(part, map), ranges = [];
        for (var at = hay.indexOf(needle); at >= 0 && needle; at = hay.indexOf(needle, at + needle.length)) ranges.push(at);
        ranges.reverse().forEach(function (start) {  // from the end, so earlier offsets stay valid
          var end = start + needle.length;
          for (var k = nodes.length - 1; k >= 0; k--) {
            var node = nodes[k][0], off = nodes[k][1], len = node.data.length;
            if (off >= end || off + len <= start) continue;
            var a = Math.max(start, off) - off, b = Math.min(end, off + len) - off;
            var hit = node.splitText(a);
            hit.splitText(b - a);
            var mark = document.createElement("mark");
            mark.className = "ed-hit";
            hit.parentNode.replaceChild(mark, hit);
            mark.appendChild(hit);
            first = mark;
          }
        });
      });
      if (first) {
        var row = first.closest("tr");
        (row || first).scrollIntoView({ block: "center" });
      }
    });
  }

  /* --- wiring ------------------------------------------------------------------------------------------------- */

  function init() {
    liveRegion();
    var prefs = load();
    if (location.search) { prefs = fromUrl(prefs); save(prefs); }
    apply(prefs);
    var h = new URLSearchParams(location.search).get("h");
    if (h) highlight(h);
    var controls = document.querySelector(".ed-controls");
    if (controls && !controls.dataset.wired) {
      controls.dataset.wired = "1";
      controls.addEventListener("change", function (ev) {
        var el = ev.target, p = load();
        if (el.dataset.witness) p.witnesses = toggle(p.witnesses, el.dataset.witness, el.checked);
        else if (el.dataset.kind) p.kinds = toggle(p.kinds, el.dataset.kind, el.checked);
        else if (el.name === "ed-script") p.script = el.value;
        else if (el.dataset.speak !== undefined) p.speak = el.value;
        else if (el.dataset.register !== undefined) p.register = el.checked;
        else if (el.dataset.cmp !== undefined) {
          p.compare = (p.compare || ["", ""]).slice(0, 2);
          p.compare[+el.dataset.cmp] = el.value;
        }
        save(p);
        apply(p);
      });
    }
    var content = document.querySelector(".md-content");
    if (!content || content.dataset.wired) return;
    content.dataset.wired = "1";
    var table = content.querySelector(".ed-parallel");
    var ranges = table ? rowRanges(table) : null;
    content.addEventListener("click", function (ev) {
      var link = ev.target.closest("mark.v > a");
      if (link) {
        ev.preventDefault();
        openPop(link.parentElement, link);
        return;
      }
      var cite = ev.target.closest("button.ed-cite");
      if (cite) copy(citation(cite), cite);
    });
    function over(ev) {
      var mark = ev.target.closest && ev.target.closest("mark.v");
      lightMarks(mark);
      if (table) lightRow(table, ranges, ev.target.closest && ev.target.closest(".ed-parallel td"));
    }
    content.addEventListener("mouseover", over);
    content.addEventListener("focusin", over);
    content.addEventListener("mouseleave", function () { lightMarks(null); if (table) lightRow(table, ranges, null); });
  }

  document.addEventListener("click", function (ev) {
    if (pop && !pop.hidden && !pop.contains(ev.target) && !ev.target.closest("mark.v")) closePop(false);
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closePop(true); });
  document.addEventListener("input", function (ev) {  // pasting gives no key-up, which Material's search waits for
    if (ev.target.classList && ev.target.classList.contains("md-search__input") && !ev.isComposing)
      ev.target.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  });

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
