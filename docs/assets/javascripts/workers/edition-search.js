/* The search worker: Material's own (lunr over the segmented index), with a phrase pass in front.
 *
 * lunr matches terms, not phrases: a query is cut into index terms and any page sharing one of them is a
 * result. This shim, loaded in place of Material's worker (overrides/main.html passes its file name as
 * ?material=), lets Material answer every query, then
 *   - when some pages or sections hold every whitespace-separated part of the query as a whole phrase, in
 *     either script (both sides folded char by char to Simplified with the edition's table,
 *     assets/edition-search.json), answers with those only, the most occurrences first (a name searched
 *     matches the name, not pages sharing one of its characters; a query gives the same results in either
 *     script); pages Material did not return are added; otherwise Material's answer stands;
 *   - gives each such result a snippet cut around its first hit, the hit marked;
 *   - links it with ?h=<query>, which edition.js turns into a highlight of the whole phrase on the page;
 *   - shows no zero-width character: jieba's word breaks (U+200B) are taken out of every title and snippet,
 *     and the parts of the index fenced with U+2063 (hooks/search_terms.py: the other-script copy of each run
 *     and a witness's catalogue, there for lunr) are neither phrase-matched nor shown.
 * Messages are Material's (0 setup, 1 ready, 2 query, 3 result); Material's own code is unchanged.
 */
"use strict";
var SETUP = 0, QUERY = 2, RESULT = 3;
var fold = {}, docs = [], query = "";
var send = self.postMessage.bind(self);

try {  // the folding table, next to the site's other assets (synchronous: workers may)
  var xhr = new XMLHttpRequest();
  xhr.open("GET", new URL("../../edition-search.json", self.location.href).href, false);
  xhr.send();
  var pairs = Array.from(JSON.parse(xhr.responseText).fold || "");
  for (var i = 0; i + 1 < pairs.length; i += 2) fold[pairs[i]] = pairs[i + 1];
} catch (e) { /* no table: phrases are matched in the script they are typed in */ }

function folded(text) {
  var out = "";
  for (var i = 0; i < text.length; i++) { var c = text[i]; out += (fold[c] || c).toLowerCase(); }
  return out;
}
var FENCE = "\u2063";  // hooks/search_terms.py: FENCE
function unfenced(text) {  // the text outside the fenced parts (an unpaired last fence opens nothing)
  var parts = text.split(FENCE), out = "";
  for (var i = 0; i < parts.length; i += 2) out += parts[i] + (i + 1 === parts.length - 1 ? parts[i + 1] : "");
  return out;
}
function shown(html) {  // a title or snippet as the reader sees it: no fenced part, no zero-width character
  return unfenced(html).replace(/[\u200b\u2063]/g, "");
}
function plain(html) {  // the index keeps a few tags and the segmenter's zero-width word breaks
  return shown(html).replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}
function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
function parts(q) {
  return q.replace(/["+*~^:]/g, " ").split(/\s+/).filter(function (p) { return p && p !== "-"; });
}

function withHighlight(location, q) {
  var at = location.indexOf("#");
  var param = "h=" + encodeURIComponent(q);
  return at < 0 ? location + "?" + param : location.slice(0, at) + "?" + param + location.slice(at);
}

function marked(text, at, length) {
  return escape(text.slice(0, at)) + "<mark>" + escape(text.slice(at, at + length)) + "</mark>" + escape(text.slice(at + length));
}

function snippet(doc, needle) {  // the text around the first hit, the hit marked
  var at = doc.hay.indexOf(needle);
  if (at < 0) return "<p>" + escape(doc.text.slice(0, 90)) + (doc.text.length > 90 ? "…" : "") + "</p>";
  var from = Math.max(0, at - 30), to = Math.min(doc.text.length, at + needle.length + 60);
  return "<p>" + (from > 0 ? "…" : "") + marked(doc.text.slice(from, to), at - from, needle.length) +
    (to < doc.text.length ? "…" : "") + "</p>";
}

function phrasePass(result, q) {
  var needles = parts(q).map(folded);
  if (!needles.length) return result;
  var hits = new Map();  // location -> [doc, occurrences]
  docs.forEach(function (doc) {
    var count = 0;
    for (var k = 0; k < needles.length; k++) {
      var n = needles[k], c = 0;
      for (var at = doc.hay.indexOf(n); at >= 0; at = doc.hay.indexOf(n, at + n.length)) c++;
      var inTitle = doc.titleHay.indexOf(n) >= 0;
      if (!c && !inTitle) return;
      count += c + (inTitle ? 10 : 0);
    }
    hits.set(doc.location, [doc, count]);
  });
  if (!hits.size) return result;
  var groups = result.items.map(function (group) { return group.slice(); });
  var seen = new Set();
  groups.forEach(function (group) { group.forEach(function (item) { seen.add(item.location); }); });
  hits.forEach(function (hit, location) {  // pages Material did not return
    if (seen.has(location)) return;
    var path = location.split("#")[0];
    var group = groups.find(function (g) { return g.some(function (item) { return item.location === path; }); });
    var item = { location: location, title: hit[0].title, text: "", score: 0, terms: {} };
    if (group) group.push(item);
    else {
      group = [item];
      var article = docs.find(function (d) { return d.location === path; });
      if (article && article.location !== location) group.push({ location: path, title: article.title, text: "", score: 0, terms: {} });
      groups.push(group);
    }
  });
  groups.forEach(function (group) {
    var top = group.reduce(function (n, item) { return Math.max(n, item.score); }, 0);
    group.forEach(function (item) {
      var hit = hits.get(item.location);
      if (!hit) return;
      var doc = hit[0], inTitle = doc.titleHay.indexOf(needles[0]);
      item.text = snippet(doc, needles[0]);
      item.title = inTitle >= 0 ? marked(doc.title, inTitle, needles[0].length) : escape(doc.title);
      item.terms = {};
      item.terms[q.trim()] = true;
      item.score = top + hit[1];  // shown with the best of its page, not folded away under "more"
      item.location = withHighlight(item.location, q.trim());
      item.phrase = hit[1];
    });
    group.sort(function (a, b) { return b.score - a.score; });
  });
  groups = groups.map(function (group) {  // the phrase's holders only, each under its page's own entry
    return group.filter(function (item) { return item.phrase || item.location.split("?")[0].indexOf("#") < 0; });
  }).filter(function (group) { return group.some(function (item) { return item.phrase; }); });
  groups.forEach(function (group) {
    group.forEach(function (item) { if (!item.phrase) { item.text = ""; item.terms = {}; } });
  });
  var best = function (group) { return group.reduce(function (n, item) { return Math.max(n, item.phrase || 0); }, 0); };
  var ranked = groups.map(function (group, i) { return [best(group), i, group]; });
  ranked.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
  result.items = ranked.map(function (r) { return r[2]; });
  return result;
}

function cleaned(result) {  // every title and snippet without zero-width characters or fenced parts
  result.items.forEach(function (group) {
    group.forEach(function (item) {
      if (typeof item.title === "string") item.title = shown(item.title);
      if (typeof item.text === "string") item.text = shown(item.text);
    });
  });
  return result;
}

self.postMessage = function (message) {
  if (message && message.type === RESULT && query) {
    try { message.data = phrasePass(message.data, query); } catch (e) { /* Material's answer as it is */ }
    try { message.data = cleaned(message.data); } catch (e) { /* as it is */ }
  }
  send(message);
};

self.addEventListener("message", function (ev) {
  var message = ev.data;
  if (message.type === SETUP) {
    docs = message.data.docs.map(function (d) {
      var text = plain(d.text || ""), title = plain(d.title || "");
      return { location: d.location, title: title, text: text, hay: folded(text), titleHay: folded(title) };
    });
  } else if (message.type === QUERY) {
    query = message.data || "";
  }
});

importScripts(new URL("./" + new URL(self.location.href).searchParams.get("material"), self.location.href).href);
