// The token form: a scanned link (`/play/?token=...`) has prefilled the field; the address bar
// and the history forget the token at once, before the player even presses Play.
(function () {
  "use strict";
  if (window.location.search) window.history.replaceState(null, "", window.location.pathname);
})();
