/* The page "自己输入句子" (site/translate.md): a reader types English, the shipped model translates it in the
   page (nmt.js), and the page draws the attention heatmap on a <canvas> with the bundled Chinese font, a
   step slider, the top-5 candidates of the current step beside that step's attention, a model picker
   and the copied unknown words marked. Works from file:// (model files are <script>s, never fetched). */
(function () {
  "use strict";

  var FONT_FAMILY = '"Noto Sans SC Subset", sans-serif';
  var LABEL_FONT = "14px " + FONT_FAMILY, CELL_FONT = "11px " + FONT_FAMILY;
  var MAX_WIDTH = 720, MAX_CELL = 34, MIN_CELL = 14;
  // a light-to-dark blue scale (0 -> 1), like the notebooks' "Blues" heatmaps
  var STOPS = [[247, 251, 255], [198, 219, 239], [107, 174, 214], [33, 113, 181], [8, 48, 107]];

  function colour(w) {
    var x = Math.max(0, Math.min(1, w)) * (STOPS.length - 1), k = Math.min(Math.floor(x), STOPS.length - 2), f = x - k;
    var c = STOPS[k].map(function (v, i) { return Math.round(v + f * (STOPS[k + 1][i] - v)); });
    return "rgb(" + c.join(",") + ")";
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  function setUp(app) {
    var base = app.dataset.base || "";
    var q = function (sel) { return app.querySelector(sel); };
    var picker = q(".nmt-model"), decoding = q(".nmt-decoding"), form = q(".nmt-form"), input = q(".nmt-input");
    var status = q(".nmt-status"), error = q(".nmt-error"), textOut = q(".nmt-text"), note = q(".nmt-note");
    var slider = q(".nmt-step"), stepValue = q(".nmt-step-value"), canvas = q(".nmt-heatmap");
    var noAttention = q(".nmt-no-attention"), caption = q(".nmt-step-caption"), top5 = q(".nmt-top5 tbody");
    var rowView = q(".nmt-row-attention"), result = null, steps = null;

    NMT.models().forEach(function (m) {
      var option = el("option", null, m.label);
      option.value = m.name;
      picker.appendChild(option);
    });

    function busy(text) { status.textContent = text; }

    function load(name) {
      if (!NMT.loaded(name)) busy("正在加载模型 (loading) " + name + " …");
      return NMT.load(name, base).then(function (m) { busy(""); return m; });
    }

    function labels() {  // row labels (target, then <eos>) and column labels (source as typed)
      var rows = result.tgtTokens.slice(), copied = {};
      result.copied.forEach(function (c) { copied[c.tgtIndex] = c; });
      if (result.finished) rows.push("<eos>");
      return {rows: rows, cols: result.surfaces, copied: copied};
    }

    function draw(t) {  // the heatmap with rows 1..t in colour, the row of step t framed
      var att = result.attention, lab = labels(), ctx = canvas.getContext("2d");
      ctx.font = LABEL_FONT;
      var left = 12 + Math.max.apply(null, lab.rows.map(function (r) { return ctx.measureText(r).width; })) + 22;
      var longest = Math.max.apply(null, lab.cols.map(function (c) { return ctx.measureText(c).width; }));
      var cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((MAX_WIDTH - left - 30) / lab.cols.length)));
      var top = Math.ceil(longest * Math.SQRT1_2) + 24;
      var width = Math.ceil(left + cell * lab.cols.length + longest * Math.SQRT1_2 * 0.3 + 20);
      var height = top + cell * att.length + 10, ratio = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
        canvas.style.width = width + "px";
        canvas.style.height = height + "px";
      }
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, width, height);
      ctx.textBaseline = "middle";
      lab.cols.forEach(function (word, s) {  // source words, slanted, above their column
        ctx.save();
        ctx.translate(left + (s + 0.5) * cell, top - 6);
        ctx.rotate(-Math.PI / 4);
        ctx.font = LABEL_FONT;
        ctx.fillStyle = result.unknown.indexOf(s) >= 0 ? "#b03a2e" : "#222222";
        ctx.textAlign = "left";
        ctx.fillText(word, 0, 0);
        ctx.restore();
      });
      att.forEach(function (row, j) {
        var y = top + j * cell, shown = j < t, copy = lab.copied[j];
        ctx.font = LABEL_FONT;
        ctx.textAlign = "right";
        ctx.fillStyle = !shown ? "#bbbbbb" : copy ? "#b03a2e" : "#222222";
        ctx.fillText(lab.rows[j] + (copy ? " ↩" : ""), left - 8, y + cell / 2);
        row.forEach(function (w, s) {
          ctx.fillStyle = shown ? colour(w) : "#f4f4f4";
          ctx.fillRect(left + s * cell, y, cell - 1, cell - 1);
          if (shown && cell >= 26) {
            ctx.font = CELL_FONT;
            ctx.textAlign = "center";
            ctx.fillStyle = w > 0.5 ? "#ffffff" : "#333333";
            ctx.fillText(w.toFixed(2).replace(/^0/, ""), left + (s + 0.5) * cell, y + cell / 2);
          }
        });
        if (copy && shown) {  // the source word the copy took: a red ring on its cell
          ctx.strokeStyle = "#b03a2e";
          ctx.lineWidth = 2;
          ctx.strokeRect(left + copy.srcIndex * cell + 2, y + 2, cell - 5, cell - 5);
        }
      });
      ctx.strokeStyle = "#e67e22";
      ctx.lineWidth = 3;
      ctx.strokeRect(left - 1.5, top + (t - 1) * cell - 1.5, cell * lab.cols.length + 2, cell + 2);
      canvas.dataset.layout = JSON.stringify({left: left, top: top, cell: cell, rows: att.length,
                                              cols: lab.cols.length, step: t});
    }

    function percent(p) {
      return (100 * p).toFixed(p >= 0.1 ? 1 : 2) + " %";
    }

    function showStep(t) {  // everything that depends on the step t (1-based)
      var T = steps.length, step = steps[t - 1], lab = labels(), copy = lab.copied[t - 1];
      slider.value = String(t);
      stepValue.textContent = t + " / " + T;
      var out = t - 1 < result.tgtTokens.length ? result.tgtTokens[t - 1] : "<eos>";
      var text = "第 t = " + t + " 步（共 " + T + " 步）：输出 “" + out + "”";
      if (step.alpha) {
        var best = 0;
        step.alpha.forEach(function (a, s) { if (a > step.alpha[best]) best = s; });
        text += "，权重最大的源词 “" + result.surfaces[best] + "”（α = " + step.alpha[best].toFixed(2) + "）";
      }
      if (copy) text += "；模型输出 <unk>，译文里写的是源词 “" + copy.word + "”（复制 copied）";
      caption.textContent = text;
      top5.textContent = "";
      var rows = step.top.slice();
      if (!rows.some(function (c) { return c.id === step.chosen; })) {  // beam search may choose outside the top 5
        rows.push({id: step.chosen, token: NMT.tgtVocab[step.chosen], p: NaN});
      }
      rows.forEach(function (c, k) {
        var tr = el("tr", c.id === step.chosen ? "nmt-chosen" : null);
        tr.appendChild(el("td", null, isNaN(c.p) ? "…" : String(k + 1)));
        var label = c.token + (c.id === step.chosen && copy ? " → " + copy.word : "");
        tr.appendChild(el("td", "nmt-token", label));
        var bar = el("td", "nmt-bar");
        var fill = el("span", "nmt-bar-fill");
        fill.style.width = (isNaN(c.p) ? 0 : Math.round(100 * c.p)) + "%";
        bar.appendChild(fill);
        tr.appendChild(bar);
        tr.appendChild(el("td", "nmt-p", isNaN(c.p) ? "" : percent(c.p)));
        tr.appendChild(el("td", "nmt-mark", c.id === step.chosen ? "← 选中 (chosen)" : ""));
        top5.appendChild(tr);
      });
      rowView.textContent = "";
      if (step.alpha) {  // this step's attention, beside the choice it led to
        rowView.appendChild(el("p", "nmt-row-title", "这一步的注意力 α_t (attention weights)"));
        var list = el("ol", "nmt-row-list");
        step.alpha.forEach(function (a, s) {
          var li = el("li", a === Math.max.apply(null, step.alpha) ? "nmt-row-max" : null);
          li.appendChild(el("span", "nmt-row-word", result.surfaces[s]));
          var bar = el("span", "nmt-row-bar");
          var fill = el("span", "nmt-bar-fill");
          fill.style.width = Math.round(100 * a) + "%";
          bar.appendChild(fill);
          li.appendChild(bar);
          li.appendChild(el("span", "nmt-p", a.toFixed(3)));
          list.appendChild(li);
        });
        rowView.appendChild(list);
        draw(t);
      }
    }

    function showTranslation() {
      textOut.textContent = "";
      var copied = {};
      result.copied.forEach(function (c) { copied[c.tgtIndex] = c; });
      var pieces = [];
      result.tgtTokens.forEach(function (tok, j) {
        var prev = pieces.length ? pieces[pieces.length - 1].text : "";
        if (prev && /[A-Za-z0-9]$/.test(prev) && /^[A-Za-z0-9]/.test(tok)) pieces.push({text: " "});
        pieces.push({text: tok, copy: copied[j]});
      });
      pieces.forEach(function (p) {
        if (p.copy) {
          var mark = el("mark", "nmt-copied", p.text);
          mark.title = "模型输出 <unk>，这里写的是注意力最大的源词 (copied from the source)";
          textOut.appendChild(mark);
        } else {
          textOut.appendChild(document.createTextNode(p.text));
        }
      });
      var notes = [];
      if (result.unknown.length) {
        notes.push("词表之外的词读作 <unk> (unknown words)：" + result.unknown.map(function (i) {
          return "“" + result.surfaces[i] + "”";
        }).join("、") + "。模型输出 <unk> 时，译文里写的是那一步注意力最大的源词（标了底色）。");
      }
      if (result.truncated || /没有注意力/.test(result.note)) {
        notes.push(result.note.replace(/^词表之外[^。]*。/, ""));
      }
      note.textContent = notes.join(" ");
      var attention = !!result.attention;
      canvas.hidden = !attention;
      noAttention.hidden = attention;
      slider.max = String(steps.length);
      slider.disabled = false;
    }

    function translate() {
      var started = performance.now(), sentence = input.value, name = picker.value;
      error.hidden = true;
      busy("");
      return load(name).then(function () {
        var options = decoding.value === "beam" ? {beamSize: 4} : {};
        try {
          result = NMT.translate(name, sentence, options);
        } catch (err) {
          if (!(err instanceof NMT.ReadError)) throw err;
          error.textContent = err.message;
          error.hidden = false;
          // the picture below still belongs to the last sentence that could be read: say so
          if (result) busy("下面仍是上一句的译文和热力图 (still showing the previous sentence)。");
          app.dataset.state = "error";
          return;
        }
        steps = NMT.replay(NMT.net(name), result.srcIds, result.tgtIds, 5);
        var text = result.tgtTokens.concat(result.surfaces).join("");
        return document.fonts.load(LABEL_FONT, text || "注").then(function () {
          showTranslation();
          showStep(result.tgtTokens.length ? 1 : steps.length);
          app.dataset.ms = String(Math.round(performance.now() - started));
          app.dataset.state = "done";
        });
      }).catch(function (err) {
        error.textContent = "出错了 (error)：" + err.message;
        error.hidden = false;
        app.dataset.state = "error";
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      app.dataset.state = "busy";
      translate();
    });
    slider.addEventListener("input", function () { if (steps) showStep(Number(slider.value)); });
    picker.addEventListener("change", function () { if (result) { app.dataset.state = "busy"; translate(); } });
    decoding.addEventListener("change", function () { if (result) { app.dataset.state = "busy"; translate(); } });
    // the default model, then the sentence already in the box: the reader sees a heatmap at once
    load(picker.value).then(translate).then(function () { app.dataset.ready = "1"; }, function (err) {
      error.textContent = "模型加载失败 (cannot load the model)：" + err.message;
      error.hidden = false;
    });
  }

  function start() {
    document.querySelectorAll(".nmt-app").forEach(setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
