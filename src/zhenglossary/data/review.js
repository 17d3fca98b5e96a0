// zhen review page: filters and term pairing. Loaded by review.py and inlined into the page
// (hash-pinned by its CSP). No network, no storage.
(function () {
  "use strict";
  var byId = function (id) { return document.getElementById(id); };
  var all = function (root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); };
  var rows = all(document, ".pair");
  var findings = all(document, ".finding");
  var controls = ["f-findings", "f-edited", "f-status", "f-same", "f-check", "f-severity"];
  var edited = ["edited", "invalid"];

  function apply() {
    var onlyFindings = byId("f-findings").checked;
    var onlyEdited = byId("f-edited").checked;
    var showSame = byId("f-same").checked;
    var check = byId("f-check").value;
    var severity = byId("f-severity").value;          // "" = any
    var wanted = byId("f-status").value;              // "" = any
    findings.forEach(function (f) {
      f.hidden = (severity !== "" && f.getAttribute("data-severity") !== severity) ||
        (check !== "" && f.getAttribute("data-check") !== check);
    });
    all(document, ".findings").forEach(function (list) {
      list.hidden = list.querySelector(".finding:not([hidden])") === null;
    });
    var needFinding = onlyFindings || check !== "" || severity !== "";
    var shown = 0, total = 0, sameShown = 0;
    rows.forEach(function (row) {
      var status = row.getAttribute("data-status");
      var show = true;
      if (needFinding && row.querySelector(".finding:not([hidden])") === null) { show = false; }
      if (onlyEdited && edited.indexOf(status) < 0) { show = false; }
      if (wanted !== "" && status !== wanted) { show = false; }
      if (status === "same" && (!showSame || needFinding || onlyEdited || wanted !== "")) { show = false; }
      row.hidden = !show;
      if (status === "same") { if (show) { sameShown += 1; } return; }
      total += 1;
      if (show) { shown += 1; }
    });
    all(document, "section.note").forEach(function (section) {
      var empty = section.querySelector(".empty");
      var any = section.querySelectorAll(".pair").length;
      if (empty) { empty.hidden = any === 0 || section.querySelector(".pair:not([hidden])") !== null; }
    });
    byId("shown").textContent = shown + " of " + total + " blocks shown" +
      (sameShown ? " (+" + sameShown + " unchanged)" : "");
    document.body.setAttribute("data-filtered", "yes");
  }
  controls.forEach(function (id) { byId(id).addEventListener("change", apply); });

  // "reviewed" ticks build the `zhen mark` command of their note
  function markCommand(section) {
    var box = section.querySelector(".mark");
    if (!box) { return; }
    var base = box.getAttribute("data-command");
    var add = [], drop = [];
    all(section, "input.mark-box").forEach(function (input) {
      var was = input.closest(".pair").getAttribute("data-status") === "reviewed";
      var block = input.getAttribute("data-block");
      if (input.checked && !was) { add.push(block); }
      if (!input.checked && was) { drop.push(block); }
    });
    var parts = [];
    if (add.length) { parts.push(base + " " + add.join(" ")); }
    if (drop.length) { parts.push(base + " " + drop.join(" ") + " --as machine"); }
    box.querySelector(".mark-cmd").textContent = parts.length ? parts.join(" && ") : base;
  }
  all(document, "section.note").forEach(function (section) {
    all(section, "input.mark-box").forEach(function (input) {
      input.addEventListener("change", function () { markCommand(section); });
    });
    var copy = section.querySelector(".mark .copy");
    if (copy) {
      copy.addEventListener("click", function () {
        var code = section.querySelector(".mark-cmd");
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(code.textContent);
        }
        var range = document.createRange();
        range.selectNodeContents(code);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      });
    }
  });

  // a term and its English light up together, within their block
  function partners(mark) {
    var row = mark.closest(".pair");
    var key = mark.getAttribute("data-zh");
    return row ? all(row, "mark.term").filter(function (m) { return m.getAttribute("data-zh") === key; }) : [];
  }
  function hover(on) {
    return function (event) {
      var mark = event.target.closest ? event.target.closest("mark.term") : null;
      if (!mark) { return; }
      partners(mark).forEach(function (m) { m.classList.toggle("hot", on); });
    };
  }
  document.addEventListener("mouseover", hover(true));
  document.addEventListener("mouseout", hover(false));
  document.addEventListener("focusin", hover(true));
  document.addEventListener("focusout", hover(false));
  apply();
})();
