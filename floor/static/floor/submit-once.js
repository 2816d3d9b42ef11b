// A money form is sent once: after the first submit its buttons are disabled and a second
// submit of the same page is ignored. The server records each form's key once whatever the
// browser does; this only spares the second request. Loaded from a file (no inline script).
(() => {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.querySelector("input[name=submission_key]")) return;
    if (form.dataset.submitted === "true") {
      event.preventDefault();
      return;
    }
    form.dataset.submitted = "true";
    // Disabled after the submission has taken the buttons' values, not before.
    setTimeout(() => {
      for (const button of form.querySelectorAll("button[type=submit], input[type=submit]")) {
        button.disabled = true;
      }
    }, 0);
  });
  // A page shown again from the back-forward cache can be sent again (the server answers
  // "already recorded" for its key).
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll("form[data-submitted]")) {
      delete form.dataset.submitted;
      for (const button of form.querySelectorAll("button[type=submit], input[type=submit]")) {
        button.disabled = false;
      }
    }
  });
})();
