/* The shipped models in plain JavaScript: tokeniser, forward pass, greedy and beam decoding, unknown-word copy.
 *
 * Needs window.NMT_DATA (nmt-data.js) and window.NMT_WEIGHTS[name] (model-<name>.js), both written by
 * `python -m helpers.tools.webmodels`. Mirrors, rule for rule:
 *   helpers/corpus/tokenizer.py      typed_tokens, complete_sentence (tables come from NMT_DATA.tokenizer)
 *   helpers/translation/source.py    read_source (the same errors for input without an English word)
 *   helpers/seq2seq.py               Encoder: embedding, bidirectional GRU, h̄_s = W_p[→h;←h], s_0 = tanh(W_h[→h_S;←h_1])
 *   helpers/decoders.py              none, rnnencdec, Bahdanau, Luong dot / general / concat (± input feeding)
 *   helpers/attention.py             the scores of Eq. (9-40), softmax (9-37), context (9-38), h̃ (9-39)
 *   helpers/decode.py                greedy (max 2 S + 5 steps, eos_guard) and beam search (length norm,
 *                                    coverage penalty), as translate() runs them
 *   helpers/translation/copying.py   <unk> -> the source word with the largest attention at that step
 * Numbers: the weights are float32 (float16 files are widened when loaded); arithmetic is in float64.
 * Exposes window.NMT = {read, load, loaded, translate, replay, ReadError, ...}. No DOM, no network. */
(function () {
  "use strict";

  var PAD = 0, BOS = 1, EOS = 2, UNK_ID = 3, UNK = "<unk>";

  // ------------------------------------------------------------------------------------------ tokeniser
  var T = null;  // NMT_DATA.tokenizer, plus compiled patterns
  var ALNUM = /[\p{L}\p{N}]/u;
  var CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
  var ENGLISH_WORD = /^[a-z0-9]*[a-z][a-z0-9]*(?:[-'][a-z0-9]+)*$/;

  function escapeClass(chars) {
    return chars.replace(/[\\\]\[^-]/g, "\\$&");
  }

  function letterClass(letter) {  // one letter as re.IGNORECASE matches it
    return "[" + letter + letter.toUpperCase() + escapeClass(T.folds[letter] || "") + "]";
  }

  function setUpTokenizer(tables) {
    T = tables;
    var latin = "a-zA-Z" + escapeClass(Object.keys(T.folds).map(function (k) { return T.folds[k]; }).join(""));
    var unk = "<" + letterClass("u") + letterClass("n") + letterClass("k") + ">";
    var word = "[" + latin + "0-9]+(?:'[" + latin + "]+)*";
    var notWord = "(?![\\p{L}\\p{N}_])";  // Python's \b after a word character
    var space = escapeClass(T.whitespace);
    // _TOKEN = <unk> | [a-z0-9]+('[a-z]+)* | 's\b | \S   (IGNORECASE)
    T.token = new RegExp(unk + "|" + word + "|'" + letterClass("s") + notWord + "|[^" + space + "]", "gu");
    // _CLOCK = \b(\d{1,2}):(\d{2})\b   (Unicode digits and word boundaries)
    T.clock = new RegExp("(?<![\\p{L}\\p{N}_])(\\p{Nd}{1,2}):(\\p{Nd}{2})" + notWord, "gu");
    T.tensWords = new Set(Object.keys(T.tens).map(function (k) { return T.tens[k]; }));
    T.units1to9 = new Set(T.units.slice(1, 10).concat(T.ordinals.slice(1, 10)));
  }

  function chars(s) { return Array.from(s); }  // code points, as Python counts and slices

  function digitValue(ch) {  // a Unicode decimal digit: runs of ten, 0..9 in order (Unicode's rule)
    var cp = ch.codePointAt(0), k = 0;
    while (k < 40 && /\p{Nd}/u.test(String.fromCodePoint(cp - k - 1))) k += 1;
    return k % 10;
  }

  function intOf(digits) {
    return chars(digits).reduce(function (n, ch) { return 10 * n + digitValue(ch); }, 0);
  }

  function isDigits(s) { return s.length > 0 && /^\p{Nd}+$/u.test(s); }

  function mapFullwidth(text) {
    return chars(text).map(function (ch) {
      return Object.prototype.hasOwnProperty.call(T.fullwidth, ch) ? T.fullwidth[ch] : ch;
    }).join("");
  }

  function numberWords(n, ordinal) {
    if (n < 20) return [(ordinal ? T.ordinals : T.units)[n]];
    if (n === 100) return ["one", ordinal ? "hundredth" : "hundred"];
    var tens = Math.floor(n / 10), unit = n % 10;
    if (!unit) return [(ordinal ? T.tens_ordinals : T.tens)[String(n)]];
    return [T.tens[String(10 * tens)], (ordinal ? T.ordinals : T.units)[unit]];
  }

  function expand(word) {  // one lower-case raw token -> corpus tokens (contractions, digits)
    if (word === "'s") return [word];
    if (Object.prototype.hasOwnProperty.call(T.contractions, word)) return T.contractions[word].split(" ");
    if (T.keep.indexOf(word) >= 0) return [word];
    if (isDigits(word) && chars(word).length <= 3 && intOf(word) <= 100) return numberWords(intOf(word), false);
    var ordinal = /^(\p{Nd}{1,3})(st|nd|rd|th)$/u.exec(word);
    if (ordinal && intOf(ordinal[1]) <= 100) return numberWords(intOf(ordinal[1]), true);
    if (word.endsWith("n't")) return [word.slice(0, -3), "not"].filter(Boolean);
    if (word.endsWith("'s")) return [word.slice(0, -2), "'s"];
    for (var i = 0; i < T.suffixes.length; i++) {
      var suffix = T.suffixes[i][0];
      if (word.endsWith(suffix) && chars(word).length > suffix.length) return [word.slice(0, -suffix.length), T.suffixes[i][1]];
    }
    if (word.indexOf("'") >= 0) return word.split(/(')/).filter(Boolean);
    return [word];
  }

  function typedTokens(text) {  // [[token, surface], ...] as helpers.corpus.tokenizer.typed_tokens
    text = mapFullwidth(mapFullwidth(text).normalize("NFKC"));
    text = text.replace(T.clock, function (_, hour, minute) {
      return minute === "00" ? hour + " o'clock" : hour + " " + intOf(minute);
    });
    var out = [];
    (text.match(T.token) || []).forEach(function (raw) {
      var low = raw.toLowerCase(), parts = expand(low);
      if (parts.length === 1 && parts[0] === low) {
        out.push([low, raw]);
      } else if (low.startsWith(parts[0]) && !isDigits(low)) {
        out.push([parts[0], chars(raw).slice(0, chars(parts[0]).length).join("")]);
        parts.slice(1).forEach(function (p) { out.push([p, p]); });
      } else {
        parts.forEach(function (p) { out.push([p, p]); });
      }
    });
    return out.filter(function (p, k) {  // twenty - one -> twenty one
      return !(p[0] === "-" && k > 0 && k < out.length - 1 && T.tensWords.has(out[k - 1][0]) &&
               T.units1to9.has(out[k + 1][0]));
    });
  }

  function hasAlnum(token) { return ALNUM.test(token); }

  function isQuestion(tokens) {
    var words = tokens.filter(hasAlnum);
    if (!words.length || T.question_starts.indexOf(words[0]) < 0) return false;
    var not = T.not_question_second[words[0]] || [];
    return !(words.length > 1 && not.indexOf(words[1]) >= 0);
  }

  function completeSentence(tokens) {
    tokens = tokens.slice();
    if (!tokens.some(hasAlnum)) return tokens;
    while (tokens.length && T.drop_at_end.indexOf(tokens[tokens.length - 1]) >= 0) tokens.pop();
    if (tokens.length && T.end.indexOf(tokens[tokens.length - 1]) >= 0) {
      var last = tokens[tokens.length - 1];
      while (tokens.length && T.end.indexOf(tokens[tokens.length - 1]) >= 0) tokens.pop();
      return tokens.concat([last]);
    }
    return tokens.concat([isQuestion(tokens) ? "?" : "."]);
  }

  function pyRepr(s) {  // Python's repr() of a str, for the messages that quote the input
    var quote = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'";
    var body = chars(s).map(function (ch) {
      if (ch === "\\" || ch === quote) return "\\" + ch;
      if (ch === "\n") return "\\n";
      if (ch === "\r") return "\\r";
      if (ch === "\t") return "\\t";
      if (ch !== " " && /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch)) {
        var cp = ch.codePointAt(0);
        if (cp < 0x100) return "\\x" + cp.toString(16).padStart(2, "0");
        if (cp < 0x10000) return "\\u" + cp.toString(16).padStart(4, "0");
        return "\\U" + cp.toString(16).padStart(8, "0");
      }
      return ch;
    }).join("");
    return quote + body + quote;
  }

  function ReadError(kind, message, words) {  // kind: "empty" | "chinese" | "no_english"
    this.kind = kind;
    this.message = message;
    this.words = words || [];
  }
  ReadError.prototype = Object.create(Error.prototype);
  ReadError.prototype.name = "ReadError";

  var EXAMPLE = "'i am a student .'";

  function read(sentence, options) {
    /* English as a student types it -> {tokens, surfaces, ids, unknown, truncated, note};
       input without an English word -> throws ReadError (the messages of helpers.translation.source). */
    options = options || {};
    var maxTokens = options.maxSrcTokens || T.max_src_tokens;
    var punctuate = options.punctuate !== false;
    var pairs = typedTokens(String(sentence));
    if (!pairs.some(function (p) { return hasAlnum(p[0]); })) {
      throw new ReadError("empty", "句子是空的或只有标点 (empty input)：请输入至少一个英文单词，例如 " + EXAMPLE + "。");
    }
    if (punctuate) {
      var plain = pairs.map(function (p) { return p[0]; });
      var done = completeSentence(plain);
      if (done.join("\u0000") !== plain.join("\u0000") || done.length !== plain.length) {
        var last = done[done.length - 1];
        pairs = pairs.slice(0, done.length - 1).concat([[last, last]]);
      }
    }
    var truncated = false, note = "";
    if (pairs.length > maxTokens) {
      note = "输入有 " + pairs.length + " 个词，超过 " + maxTokens + " 个，只翻译了前 " + maxTokens + " 个 " +
        "(input truncated to the first " + maxTokens + " of " + pairs.length + " tokens)。";
      pairs = pairs.slice(0, maxTokens);
      truncated = true;
    }
    var english = pairs.some(function (p) { return isEnglishWord(p[0]); });
    var short = pairs.map(function (p) {
      if (chars(p[0]).length <= T.max_token_chars) return p;
      return [chars(p[0]).slice(0, 20).join("") + "…", chars(p[1]).slice(0, 20).join("") + "…"];
    });
    var tokens = short.map(function (p) { return p[0]; }), surfaces = short.map(function (p) { return p[1]; });
    if (!english) {
      var chinese = tokens.filter(function (t) { return CJK.test(t); });
      var space = "[" + escapeClass(T.whitespace) + "]+", stripped = String(sentence).replace(new RegExp("^" + space + "|" + space + "$", "gu"), "");
      if (chinese.length) {
        var shown = chars(stripped).length <= 30 ? stripped : chars(stripped).slice(0, 29).join("") + "…";
        throw new ReadError("chinese",
          "输入里有中文 (Chinese input)：" + pyRepr(shown) + "。这个模型把英文翻译成中文 (it translates English into Chinese)，" +
          "请输入英文句子 (English input expected)，例如 " + EXAMPLE + "，语料里它的中文是“我是一名学生。”。", chinese);
      }
      throw new ReadError("no_english",
        "句子里没有英文单词 (no English word): " + pyRepr(chars(tokens.join(" ")).slice(0, 60).join("")) +
        "。这个模型把英文翻译成中文 (it translates English into Chinese)，请输入至少一个英文单词，例如 " + EXAMPLE + "。",
        tokens.filter(function (t) { return !SRC.has(t); }));
    }
    var unknown = [], ids = tokens.map(function (t, i) {
      if (SRC.has(t)) return SRC.get(t);
      unknown.push(i);
      return UNK_ID;
    });
    return {tokens: tokens, surfaces: surfaces, ids: ids, unknown: unknown, truncated: truncated, note: note};
  }

  function isEnglishWord(token) {
    if (SRC.has(token)) return hasAlnum(token) && !token.startsWith("<");
    return ENGLISH_WORD.test(token);
  }

  // --------------------------------------------------------------------------------------- weights
  var SRC = null, TGT = [], MODELS = {}, NETS = {};

  function halfToFloat(h) {
    var s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    if (e === 0) return s * f * Math.pow(2, -24);
    if (e === 31) return f ? NaN : s * Infinity;
    return s * (1 + f / 1024) * Math.pow(2, e - 15);
  }

  function decodeWeights(w) {  // {names, shapes, offsets, count, dtype, base64} -> {name: {data, shape}}
    var binary = atob(w.base64), bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var all;
    if (w.dtype === "float16") {
      var halves = new Uint16Array(bytes.buffer), table = new Float32Array(65536);
      for (var h = 0; h < 65536; h++) table[h] = halfToFloat(h);
      all = new Float32Array(w.count);
      for (var j = 0; j < w.count; j++) all[j] = table[halves[j]];
    } else {
      all = new Float32Array(bytes.buffer);
    }
    var out = {};
    w.names.forEach(function (name, k) {
      var size = w.shapes[k].reduce(function (a, b) { return a * b; }, 1);
      out[name] = {data: all.subarray(w.offsets[k], w.offsets[k] + size), shape: w.shapes[k]};
    });
    return out;
  }

  // -------------------------------------------------------------------------------------- numerics
  function linear(W, b, x, out) {  // out = W x (+ b); W [O, I] row-major
    var O = W.shape[0], I = W.shape[1], d = W.data, y = out || new Float64Array(O);
    for (var o = 0; o < O; o++) {
      var acc = b ? b.data[o] : 0, row = o * I;
      for (var i = 0; i < I; i++) acc += d[row + i] * x[i];
      y[o] = acc;
    }
    return y;
  }

  function concat() {
    var n = 0, k;
    for (k = 0; k < arguments.length; k++) n += arguments[k].length;
    var out = new Float64Array(n), at = 0;
    for (k = 0; k < arguments.length; k++) { out.set(arguments[k], at); at += arguments[k].length; }
    return out;
  }

  function sigmoid(x) { return 1 / (1 + Math.exp(-x)); }

  function gruCell(p, x, h) {  // PyTorch's GRU: gates r, z, n stacked in that order
    var H = h.length, gi = linear(p.wih, p.bih, x), gh = linear(p.whh, p.bhh, h), out = new Float64Array(H);
    for (var k = 0; k < H; k++) {
      var r = sigmoid(gi[k] + gh[k]), z = sigmoid(gi[H + k] + gh[H + k]);
      var n = Math.tanh(gi[2 * H + k] + r * gh[2 * H + k]);
      out[k] = (1 - z) * n + z * h[k];
    }
    return out;
  }

  function gruParams(w, prefix, suffix) {
    return {wih: w[prefix + "weight_ih_l0" + suffix], whh: w[prefix + "weight_hh_l0" + suffix],
            bih: w[prefix + "bias_ih_l0" + suffix], bhh: w[prefix + "bias_hh_l0" + suffix]};
  }

  function embed(E, id) {
    var D = E.shape[1];
    return Float64Array.from(E.data.subarray(id * D, (id + 1) * D));
  }

  function softmax(scores) {
    var m = -Infinity, k, out = new Float64Array(scores.length), sum = 0;
    for (k = 0; k < scores.length; k++) m = Math.max(m, scores[k]);
    for (k = 0; k < scores.length; k++) { out[k] = Math.exp(scores[k] - m); sum += out[k]; }
    for (k = 0; k < scores.length; k++) out[k] /= sum;
    return out;
  }

  function logSoftmax(logits) {
    var m = -Infinity, k, sum = 0, out = new Float64Array(logits.length);
    for (k = 0; k < logits.length; k++) m = Math.max(m, logits[k]);
    for (k = 0; k < logits.length; k++) sum += Math.exp(logits[k] - m);
    var lse = m + Math.log(sum);
    for (k = 0; k < logits.length; k++) out[k] = logits[k] - lse;
    return out;
  }

  function tanhVec(v) { for (var k = 0; k < v.length; k++) v[k] = Math.tanh(v[k]); return v; }

  // ---------------------------------------------------------------------------------------- models
  function buildNet(record, w) {
    var cfg = record.config, H = cfg.hidden_size, variant = cfg.variant;
    var net = {name: record.name, variant: variant, config: cfg, decoding: record.decoding, H: H,
               hasAttention: variant !== "none" && variant !== "rnnencdec"};
    var enc = {emb: w["encoder.embedding.weight"], fwd: gruParams(w, "encoder.rnn.", ""),
               bwd: gruParams(w, "encoder.rnn.", "_reverse"), Wp: w["encoder.W_p.weight"], bp: w["encoder.W_p.bias"],
               Wh: w["encoder.W_h.weight"], bh: w["encoder.W_h.bias"]};
    var dec = {emb: w["decoder.embedding.weight"], rnn: gruParams(w, "decoder.rnn.", ""),
               Ws: w["decoder.W_s.weight"], bs: w["decoder.W_s.bias"], Wo: w["decoder.W_o.weight"],
               bo: w["decoder.W_o.bias"], Wc: w["decoder.W_c.weight"], Wq: w["decoder.attention.score.W_q"],
               Wk: w["decoder.attention.score.W_k"], Wa: w["decoder.attention.score.W_a"],
               va: w["decoder.attention.score.v_a"]};
    if (cfg.num_layers !== 1 || cfg.rnn !== "gru" || !cfg.bidirectional || cfg.local_window) {
      throw new Error("nmt.js: only one-layer bidirectional-GRU models with global attention are supported");
    }
    var score = variant.indexOf("luong-") === 0 ? variant.slice(6) : variant === "bahdanau" ? "additive" : null;

    net.encode = function (ids) {  // -> {keys: [h̄_s], state: s_0, proj: per-key precomputation}
      var S = ids.length, x = ids.map(function (id) { return embed(enc.emb, id); });
      var fwd = [], bwd = new Array(S), h = new Float64Array(H), s;
      for (s = 0; s < S; s++) { h = gruCell(enc.fwd, x[s], h); fwd.push(h); }
      h = new Float64Array(H);
      for (s = S - 1; s >= 0; s--) { h = gruCell(enc.bwd, x[s], h); bwd[s] = h; }
      var keys = fwd.map(function (f, k) { return linear(enc.Wp, enc.bp, concat(f, bwd[k])); });
      var state = tanhVec(linear(enc.Wh, enc.bh, concat(fwd[S - 1], bwd[0])));
      var proj = null;
      if (score === "additive") proj = keys.map(function (k) { return linear(dec.Wk, null, k); });
      if (score === "concat") proj = keys.map(function (k) { return matCols(dec.Wa, H, 2 * H, k); });
      return {keys: keys, state: state, proj: proj};
    };

    function matCols(W, from, to, x) {  // W[:, from:to] x
      var O = W.shape[0], I = W.shape[1], y = new Float64Array(O);
      for (var o = 0; o < O; o++) {
        var acc = 0, row = o * I;
        for (var i = from; i < to; i++) acc += W.data[row + i] * x[i - from];
        y[o] = acc;
      }
      return y;
    }

    function additive(q, proj) {  // v_aᵀ tanh(q + k_s) for every s
      return proj.map(function (k) {
        var acc = 0;
        for (var a = 0; a < q.length; a++) acc += dec.va.data[a] * Math.tanh(q[a] + k[a]);
        return acc;
      });
    }

    function attend(h, enc_) {  // Luong ① ② from the query h: weights α and context c
      var scores, keys = enc_.keys;
      if (score === "dot") {
        scores = keys.map(function (k) { var acc = 0; for (var i = 0; i < H; i++) acc += h[i] * k[i]; return acc; });
        if (cfg.scaled_score) scores = scores.map(function (v) { return v / Math.sqrt(H); });
      } else if (score === "general") {
        var Dk = dec.Wa.shape[1], qW = new Float64Array(Dk);  // h W_a, W_a [Dq, Dk]
        for (var q = 0; q < h.length; q++) for (var j = 0; j < Dk; j++) qW[j] += h[q] * dec.Wa.data[q * Dk + j];
        scores = keys.map(function (k) { var acc = 0; for (var i = 0; i < Dk; i++) acc += qW[i] * k[i]; return acc; });
        if (cfg.scaled_score) scores = scores.map(function (v) { return v / Math.sqrt(Dk); });
      } else if (score === "concat") {
        scores = additive(matCols(dec.Wa, 0, H, h), enc_.proj);
      } else {  // additive (Bahdanau)
        scores = additive(linear(dec.Wq, null, h), enc_.proj);
      }
      var alpha = softmax(scores), ctx = new Float64Array(keys[0].length);
      keys.forEach(function (k, s) { for (var i = 0; i < k.length; i++) ctx[i] += alpha[s] * k[i]; });
      return {alpha: alpha, context: ctx};
    }

    net.start = function (enc_) {
      return {hidden: enc_.state, feed: new Float64Array(H), summary: enc_.state};
    };

    net.step = function (prev, st, enc_) {  // -> {logits, alpha (or null), state}
      var e = embed(dec.emb, prev), h, r, logits, alpha = null, next = {feed: st.feed, summary: st.summary};
      if (variant === "none") {
        h = gruCell(dec.rnn, e, st.hidden);
        logits = linear(dec.Ws, dec.bs, h);
      } else if (variant === "rnnencdec") {
        var c = st.summary;
        h = gruCell(dec.rnn, concat(e, c), st.hidden);
        logits = linear(dec.Ws, dec.bs, tanhVec(linear(dec.Wo, dec.bo, concat(h, e, c))));
      } else if (variant === "bahdanau") {
        r = attend(st.hidden, enc_);  // the query is s_{t-1}
        h = gruCell(dec.rnn, concat(e, r.context), st.hidden);
        logits = linear(dec.Ws, dec.bs, tanhVec(linear(dec.Wo, dec.bo, concat(h, r.context, e))));
        alpha = r.alpha;
      } else {
        h = gruCell(dec.rnn, cfg.input_feeding ? concat(e, st.feed) : e, st.hidden);
        r = attend(h, enc_);
        var hTilde = tanhVec(linear(dec.Wc, null, concat(r.context, h)));  // Eq. (9-39), [c_t; h_t]
        logits = linear(dec.Ws, dec.bs, hTilde);
        alpha = r.alpha;
        next.feed = hTilde;
      }
      next.hidden = h;
      return {logits: logits, alpha: alpha, state: next};
    };
    return net;
  }

  function setUp() {
    var data = window.NMT_DATA;
    if (!data) throw new Error("nmt.js: nmt-data.js is not loaded");
    setUpTokenizer(data.tokenizer);
    SRC = new Map(data.vocab.src.map(function (t, i) { return [t, i]; }));
    TGT = data.vocab.tgt;
    data.models.forEach(function (m) { MODELS[m.name] = m; });
  }

  function loaded(name) {
    return !!NETS[name] || !!(window.NMT_WEIGHTS && window.NMT_WEIGHTS[name]);
  }

  function net(name) {
    if (!NETS[name]) {
      var w = window.NMT_WEIGHTS && window.NMT_WEIGHTS[name];
      if (!MODELS[name] || !w) throw new Error("nmt.js: model " + name + " is not loaded");
      NETS[name] = buildNet(MODELS[name], decodeWeights(w));
      delete window.NMT_WEIGHTS[name];  // the float32 copy is all that is kept
    }
    return NETS[name];
  }

  function load(name, base) {  // a Promise of the model: adds a <script> for model-<name>.js (file:// safe)
    return new Promise(function (resolve, reject) {
      if (loaded(name)) { resolve(net(name)); return; }
      var script = document.createElement("script");
      script.src = (base || "") + MODELS[name].file;
      script.onload = function () { try { resolve(net(name)); } catch (err) { reject(err); } };
      script.onerror = function () { reject(new Error("cannot load " + script.src)); };
      document.head.appendChild(script);
    });
  }

  // -------------------------------------------------------------------------------------- decoding
  function argmax(v, n) {
    var best = 0;
    for (var k = 1; k < (n || v.length); k++) if (v[k] > v[best]) best = k;
    return best;
  }

  function eosAllowed(cumulative, S, guard) {
    if (!guard) return true;
    var total = 0;
    for (var s = Math.max(0, S - guard[0]); s < S; s++) total += cumulative[s];
    return total >= guard[1] - 1e-9;
  }

  function topK(values, k) {  // indices of the k largest, largest first (ties: smaller index first)
    var idx = [];
    for (var i = 0; i < values.length; i++) {
      if (idx.length < k || values[i] > values[idx[idx.length - 1]]) {
        var at = idx.length;
        while (at > 0 && values[i] > values[idx[at - 1]]) at -= 1;
        idx.splice(at, 0, i);
        if (idx.length > k) idx.pop();
      }
    }
    return idx;
  }

  function greedy(m, ids, guard) {
    var enc = m.encode(ids), S = ids.length, st = m.start(enc), prev = BOS, limit = 2 * S + 5;
    var tokens = [], attention = [], finished = false, cumulative = new Float64Array(S), score = 0;
    for (var t = 0; t < limit; t++) {
      var r = m.step(prev, st, enc), logp = logSoftmax(r.logits), best;
      if (guard && r.alpha) {
        var masked = logp.slice();
        if (!eosAllowed(cumulative, S, guard)) masked[EOS] = -Infinity;
        best = argmax(masked);
        for (var s = 0; s < S; s++) cumulative[s] += r.alpha[s];
      } else {
        best = argmax(logp);
      }
      score += logp[best];
      if (r.alpha) attention.push(Array.from(r.alpha));
      st = r.state;
      if (best === EOS) { finished = true; break; }
      tokens.push(best);
      prev = best;
    }
    return {tokens: tokens, attention: m.hasAttention ? attention : null, score: score, finished: finished};
  }

  function lengthNorm(length, alpha, form) {
    return form === "gnmt" ? Math.pow((5 + length) / 6, alpha) : Math.pow(Math.max(length, 1), alpha);
  }

  function coverage(rows, S, beta) {
    if (!beta || !rows) return 0;
    var total = 0;
    for (var s = 0; s < S; s++) {
      var sum = 0;
      rows.forEach(function (row) { sum += row[s]; });
      total += Math.log(Math.max(Math.min(sum, 1), 1e-9));
    }
    return beta * total;
  }

  function beam(m, ids, k, alpha, form, beta, guard) {
    /* helpers.decode._beam_search for one sentence: k rows, the 2k best candidates per step, a
       hypothesis closes when <eos> is among the k best; winner = max log p / lp + cp (first of equals). */
    var enc = m.encode(ids), S = ids.length, V = TGT.length, limit = 2 * S + 5;
    var start = m.start(enc), rows = [], final = [];
    for (var b = 0; b < k; b++) rows.push({state: start, tok: BOS, score: b === 0 ? 0 : -Infinity, hist: [], attn: []});
    for (var t = 0; ; t++) {
      var cand = new Float64Array(k * V), steps = [];
      rows.forEach(function (row, b) {
        var r = m.step(row.tok, row.state, enc), logp = logSoftmax(r.logits);
        if (guard && r.alpha) {
          var cumulative = new Float64Array(S);
          row.attn.forEach(function (a) { for (var s = 0; s < S; s++) cumulative[s] += a[s]; });
          if (!eosAllowed(cumulative, S, guard)) logp[EOS] = -Infinity;
        }
        for (var v = 0; v < V; v++) cand[b * V + v] = row.score + logp[v];
        steps.push(r);
      });
      var top = topK(cand, Math.min(2 * k, k * V)), picked = [];
      for (var j = 0; j < top.length; j++) {
        var sc = cand[top[j]];
        if (sc === -Infinity) break;
        var from = Math.floor(top[j] / V), tok = top[j] % V, attn = null;
        if (m.hasAttention) attn = rows[from].attn.concat([Array.from(steps[from].alpha)]);
        if (tok === EOS) {
          if (j < k) final.push({norm: sc / lengthNorm(t + 1, alpha, form) + coverage(attn, S, beta), score: sc,
                                 tokens: rows[from].hist, attention: attn, finished: true});
          continue;
        }
        if (picked.length < k) picked.push({from: from, tok: tok, score: sc, attn: attn});
      }
      if (final.length >= k || !picked.length) break;
      if (t + 1 >= limit) {
        picked.forEach(function (p) {
          final.push({norm: p.score / lengthNorm(t + 1, alpha, form) + coverage(p.attn, S, beta), score: p.score,
                      tokens: rows[p.from].hist.concat([p.tok]), attention: p.attn, finished: false});
        });
        break;
      }
      var next = picked.map(function (p) {
        return {state: steps[p.from].state, tok: p.tok, score: p.score, hist: rows[p.from].hist.concat([p.tok]),
                attn: p.attn || []};
      });
      while (next.length < k) next.push({state: rows[0].state, tok: PAD, score: -Infinity, hist: [], attn: []});
      rows = next;
    }
    var best = final[0];
    final.forEach(function (h) { if (h.norm > best.norm) best = h; });
    return {tokens: best.tokens, attention: m.hasAttention ? best.attention : null, score: best.score,
            finished: best.finished};
  }

  function replay(m, ids, tokens, top) {
    /* Teacher-force the decoded tokens (and <eos>) once more: per step the top candidates with their
       probabilities and the attention row (what the page shows at step t). */
    var enc = m.encode(ids), st = m.start(enc), prev = BOS, out = [];
    for (var t = 0; t <= tokens.length; t++) {
      var r = m.step(prev, st, enc), p = softmax(r.logits);
      out.push({top: topK(p, top || 5).map(function (id) { return {id: id, token: TGT[id], p: p[id]}; }),
                chosen: t < tokens.length ? tokens[t] : EOS, alpha: r.alpha ? Array.from(r.alpha) : null});
      st = r.state;
      prev = t < tokens.length ? tokens[t] : EOS;
    }
    return out;
  }

  function copyUnknown(tokens, attention, words) {  // helpers.translation.copying.copy_unknown
    var out = tokens.slice(), copied = [];
    if (!attention || out.indexOf(UNK) < 0 || !words.length) return {tokens: out, copied: copied};
    out.forEach(function (tok, j) {
      if (tok === UNK) {
        var i = argmax(attention[j], words.length);
        out[j] = words[i];
        copied.push({tgtIndex: j, srcIndex: i, word: words[i]});
      }
    });
    return {tokens: out, copied: copied};
  }

  function joinChinese(tokens) {
    var out = "";
    tokens.forEach(function (tok) {
      if (out && /[A-Za-z0-9]$/.test(out) && /^[A-Za-z0-9]/.test(tok)) out += " ";
      out += tok;
    });
    return out;
  }

  function translate(name, sentence, options) {
    /* helpers.decode.translate with the model's shipped decoding (options: beamSize, lengthPenalty,
       lengthNorm, coveragePenalty, eosGuard override it). Throws ReadError for input it cannot take. */
    options = options || {};
    var m = net(name), d = m.decoding, source = read(sentence, options);
    var k = options.beamSize || d.beam_size, alpha = options.lengthPenalty != null ? options.lengthPenalty : d.length_penalty;
    var form = options.lengthNorm || d.length_norm, beta = options.coveragePenalty != null ? options.coveragePenalty : d.coverage_penalty;
    var guard = options.eosGuard !== undefined ? options.eosGuard : d.eos_guard;
    var r = k === 1 && !beta ? greedy(m, source.ids, guard) : beam(m, source.ids, k, alpha, form, beta, guard);
    var raw = r.tokens.map(function (id) { return TGT[id]; });
    var copy = copyUnknown(raw, r.attention, source.surfaces);
    var note = source.note;
    if (!r.attention && raw.indexOf(UNK) >= 0) {
      note += "这个模型没有注意力 (no attention)，无法复制未知词，输出里保留了 <unk> " +
        "(the model without attention cannot copy unknown words; <unk> is kept)。";
    }
    return {model: name, srcTokens: source.tokens, surfaces: source.surfaces, srcIds: source.ids,
            unknown: source.unknown, truncated: source.truncated, tgtIds: r.tokens, rawTokens: raw,
            tgtTokens: copy.tokens, text: joinChinese(copy.tokens), attention: r.attention, copied: copy.copied,
            score: r.score, finished: r.finished, note: note};
  }

  setUp();
  window.NMT = {read: read, typedTokens: typedTokens, completeSentence: completeSentence, load: load,
                loaded: loaded, net: net, translate: translate, replay: replay, models: function () {
                  return window.NMT_DATA.models.slice();
                }, ReadError: ReadError, tgtVocab: TGT, UNK: UNK};
})();
