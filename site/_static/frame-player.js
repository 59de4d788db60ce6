/* Kernel-free players of the precomputed widget frames (see _ext/frame_players.py).
   Each <section class="frame-player"> carries its index as inline JSON; the model and sentence
   pickers choose a run, the range input picks step t (counted from 1) and swaps the picture. */
(function () {
  "use strict";

  function caption(step, total) {
    return "第 t = " + step.t + " 步（共 " + total + " 步）：输出 “" + step.token + "”，" +
      "权重最大的源词 “" + step.source + "”（α = " + step.weight.toFixed(2) + "）";
  }

  function setUp(player) {
    var index = JSON.parse(player.querySelector(".frame-data").textContent);
    var base = player.dataset.base;
    var model = player.querySelector(".frame-model");
    var sentence = player.querySelector(".frame-sentence");
    var slider = player.querySelector(".frame-step");
    var value = player.querySelector(".frame-step-value");
    var image = player.querySelector(".frame-image");
    var text = player.querySelector(".frame-caption");
    var translation = player.querySelector(".frame-translation");

    function currentRun() {
      var wanted = index.sentences[Number(sentence.value)];
      return index.runs.find(function (run) {
        return run.model === model.value && run.sentence === wanted;
      });
    }

    function show() {
      var run = currentRun();
      if (!run) { return; }
      var total = run.steps.length;
      slider.max = String(total);
      if (Number(slider.value) > total) { slider.value = String(total); }
      var step = run.steps[Number(slider.value) - 1];
      value.textContent = String(step.t);
      image.src = base + step.image;
      image.alt = caption(step, total);
      text.textContent = caption(step, total);
      translation.textContent = "译文：" + run.translation;
    }

    slider.addEventListener("input", show);
    model.addEventListener("change", show);
    sentence.addEventListener("change", show);
    player.classList.add("frame-player-ready");
    show();
  }

  function init() {
    document.querySelectorAll(".frame-player").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
