/* Search result snippets without raw TeX. Sphinx's search page builds each snippet from the text of the
   found page (Search.htmlToText), before MathJax has typeset anything, so a formula would read
   "\(\alpha_{ts}\)". This wraps htmlToText: display formulas become "〔公式〕", inline ones a plain
   reading (α_ts, score(h_t, h̄_s)). Loaded on every page; it acts only where searchtools.js runs. */
(function () {
  "use strict";

  var SYMBOLS = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", theta: "θ", lambda: "λ", mu: "μ",
    pi: "π", sigma: "σ", tau: "τ", phi: "φ", omega: "ω", Sigma: "Σ", sum: "Σ", prod: "Π",
    cdot: "·", times: "×", top: "ᵀ", sqrt: "√", infty: "∞", leq: "≤", geq: "≥", neq: "≠",
    approx: "≈", in: "∈", to: "→", rightarrow: "→", leftarrow: "←", ldots: "…", dots: "…",
  };
  var ACCENTS = { bar: "\u0304", tilde: "\u0303", hat: "\u0302", vec: "\u20d7" };

  function plainTeX(tex) {
    var text = tex.replace(/^\s*\\\(|\\\)\s*$/g, "");
    // \bar{h} -> h̄ ; \tilde h -> h̃
    text = text.replace(/\\(bar|tilde|hat|vec)\s*\{([^{}])\}|\\(bar|tilde|hat|vec)\s+([A-Za-z])/g,
      function (all, a1, c1, a2, c2) { return (c1 || c2) + ACCENTS[a1 || a2]; });
    text = text.replace(/\\([A-Za-z]+)/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(SYMBOLS, name) ? SYMBOLS[name] : "";
    });
    text = text.replace(/\\[,;:! ]/g, " ").replace(/\\\\/g, " ").replace(/[{}$]/g, "").replace(/&/g, " ");
    return text.replace(/\s+/g, " ").trim();
  }

  function withoutTeX(htmlString) {
    var doc = new DOMParser().parseFromString(htmlString, "text/html");
    doc.querySelectorAll("div.math, .math-wrapper").forEach(function (el) { el.replaceWith("〔公式〕"); });
    doc.querySelectorAll("span.math").forEach(function (el) { el.replaceWith(plainTeX(el.textContent)); });
    return "<!DOCTYPE html>" + doc.documentElement.outerHTML;
  }

  function patch() {
    if (typeof Search === "undefined" || !Search.htmlToText || Search.htmlToText.withoutTeX) return;
    var original = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) { return original(withoutTeX(htmlString), anchor); };
    Search.htmlToText.withoutTeX = true;
  }

  /* From file:// a browser refuses searchtools' fetch of each found page, so results came without
     snippets. On the search page, opened from a file, answer that fetch from _static/page-texts.js
     (every page's main text, written by site/_ext/page_texts.py at build time). */
  function offlinePages() {
    var root = document.documentElement.dataset.content_root || "./";
    var rootUrl = new URL(root, window.location.href).href;
    var script = document.createElement("script");
    var loaded = new Promise(function (resolve) { script.onload = resolve; script.onerror = resolve; });
    script.src = root + "_static/page-texts.js";
    document.head.appendChild(script);
    var fetchFromFile = window.fetch;
    window.fetch = function (resource, options) {
      var url = new URL(String(resource && resource.url ? resource.url : resource), window.location.href);
      var key = url.href.indexOf(rootUrl) === 0 ? decodeURIComponent(url.href.slice(rootUrl.length).split(/[?#]/)[0]) : null;
      return loaded.then(function () {
        var texts = window.SEARCH_PAGE_TEXTS || {};
        if (key !== null && Object.prototype.hasOwnProperty.call(texts, key)) {
          return new Response(texts[key], { headers: { "Content-Type": "text/html; charset=utf-8" } });
        }
        return fetchFromFile.call(window, resource, options);
      });
    };
  }

  if (window.location.protocol === "file:" && /(^|\/)search\.html$/.test(window.location.pathname)) offlinePages();
  patch();
  document.addEventListener("DOMContentLoaded", patch);
  window.searchSnippetPlainTeX = plainTeX; // for the site test
})();
