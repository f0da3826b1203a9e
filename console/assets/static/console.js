// Prospector console: progressive enhancement only. Every page works
// without this file; with it, forms ask before deleting, "All" selects
// every lead, and a form cannot be sent twice by a double click.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      e.preventDefault();
      return;
    }
    if (form.method.toLowerCase() === "post" && !form.hasAttribute("data-sent")) {
      // Downloads leave the page in place: let the form be sent again
      // after a moment rather than never.
      form.setAttribute("data-sent", "");
      window.setTimeout(function () { form.removeAttribute("data-sent"); }, 3000);
    } else if (form.method.toLowerCase() === "post") {
      e.preventDefault();
    }
  });
  document.addEventListener("change", function (e) {
    var box = e.target;
    var name = box.getAttribute && box.getAttribute("data-select-all");
    if (!name || !box.form) {
      return;
    }
    var boxes = box.form.querySelectorAll('input[type=checkbox][name="' + name + '"]');
    for (var i = 0; i < boxes.length; i++) {
      boxes[i].checked = box.checked;
    }
  });
})();
