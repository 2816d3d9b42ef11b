// Where an entry stands (play/views.py): the page looks again by itself at the next change the
// server knows of (a heat's start, a start window's close) and at least every few seconds, so a
// waiting player sees the Start button, and later the standings, without touching anything. It
// waits while the player is typing a nickname.
(function () {
  "use strict";
  const after = Number(document.body.dataset.lookAgainMs || 0);
  if (!after) return;
  const field = document.getElementById("nickname");

  function typing() {
    return field && (document.activeElement === field || field.value !== field.defaultValue);
  }

  function lookAgain() {
    if (typing()) window.setTimeout(lookAgain, 5000);
    else window.location.replace(document.body.dataset.pageUrl);
  }

  window.setTimeout(lookAgain, after);
})();
