// The tournament board (play/board.py): asks for the standings once a second with the display
// key in a header and the last answer's ETag, so an unchanged board costs a bodiless 304; redraws
// the heat line and the standings when they change. The heat clock counts on the server's clock:
// the offset between it and this TV's is taken at every full answer.
(function () {
  "use strict";

  const body = document.body;
  const url = body.dataset.standingsUrl;
  const key = body.dataset.key;
  const pollMs = Number(body.dataset.pollMs) || 1000;
  const heatLine = document.getElementById("heat");
  const tbody = document.querySelector("#standings tbody");
  const connection = document.getElementById("connection");
  let tag = null;
  let board = null;
  let offsetMs = Date.parse(body.dataset.serverTime) - Date.now();

  // The key stays in the address bar: a TV that restarts reopens the same link.

  function el(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === false || value === null || value === undefined) continue;
      node.setAttribute(name, value === true ? "" : String(value));
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function dollars(cents) {
    const whole = Math.floor(cents / 100);
    return "$" + whole.toLocaleString("en-US") + "." + String(cents % 100).padStart(2, "0");
  }

  function countdown(untilIso) {
    const left = Math.max(0, Date.parse(untilIso) - (Date.now() + offsetMs));
    const seconds = Math.ceil(left / 1000);
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    return hours ? hours + ":" + String(minutes).padStart(2, "0") + ":" + rest : minutes + ":" + rest;
  }

  function heatText() {
    if (!board) return [heatLine.textContent, null];
    const state = board.tournament.state;
    const current = board.current_heat;
    const next = board.next_heat;
    const now = Date.now() + offsetMs;
    if (state === "cancelled") return ["This tournament was cancelled", null];
    if (state === "playing_done") return ["Play is over: results to come", null];
    if (state === "results_approved" || state === "paid") return ["Final standings", null];
    if (current && !current.closed) {
      const label = "Heat " + current.number + " of " + board.heats;
      if (Date.parse(current.window_closes_at) > now) {
        return [label + ": start your game by " + current.window_closes_at_local, countdown(current.window_closes_at)];
      }
      if (!next) return [label + ": last games in play", null];
    }
    if (next) return ["Heat " + next.number + " starts at " + next.starts_at_local, countdown(next.starts_at)];
    return ["", null];
  }

  function drawHeat() {
    const [text, clock] = heatText();
    heatLine.replaceChildren(document.createTextNode(text));
    if (clock) heatLine.append(el("span", { class: "clock", id: "heat-clock" }, clock));
  }

  function drawStandings(previous) {
    const before = new Map((previous || []).map((row) => [row.entry, row.score + "/" + row.games]));
    const showPrize = board.results_approved;
    document.querySelectorAll("#standings .prize").forEach((node) => (node.hidden = !showPrize));
    const rows = board.standings.map((row) => {
      const changed = previous && before.get(row.entry) !== row.score + "/" + row.games;
      const classes = (changed ? "changed " : "") + (row.place <= 3 && row.games > 0 ? "podium" : "");
      const tr = el("tr", { "data-entry": row.entry, class: classes.trim() || null });
      tr.append(
        el("td", { class: "num" }, String(row.place)),
        el("td", { class: "num" }, String(row.entry)),
        el("td", { class: "name" }, row.name),
        el("td", { class: "num pts" }, String(row.score)),
        el("td", { class: "num games" }, String(row.games)),
        el("td", { class: "num prize", hidden: !showPrize }, row.prize_cents ? dollars(row.prize_cents) : ""),
      );
      return tr;
    });
    if (!rows.length) {
      const none = el("tr", { class: "none" });
      none.append(el("td", { colspan: 6 }, "No entries yet."));
      rows.push(none);
    }
    tbody.replaceChildren(...rows);
    fit();
  }

  // Every row on the screen at once: the more entries, the smaller the type (board.css).
  function fit() {
    const table = document.getElementById("standings");
    table.style.setProperty("--rows", String(Math.max(8, tbody.rows.length)));
  }

  function say(text) {
    connection.textContent = text;
    connection.hidden = !text;
  }

  function accept(answer) {
    const previous = board ? board.standings : null;
    board = answer;
    offsetMs = Date.parse(answer.server_time) - Date.now();
    document.getElementById("name").textContent = answer.tournament.name;
    const state = document.getElementById("state");
    state.textContent = answer.tournament.state_label;
    state.dataset.state = answer.tournament.state;
    document.getElementById("entries").textContent = String(answer.tournament.entries);
    drawStandings(previous);
    drawHeat();
  }

  async function poll() {
    try {
      const headers = { Authorization: "Display " + key };
      if (tag) headers["If-None-Match"] = tag;
      const response = await fetch(url, { cache: "no-store", credentials: "omit", headers });
      if (response.status === 200) {
        tag = response.headers.get("ETag");
        accept(await response.json());
      }
      if (response.status === 403) {
        say("This board's display key is no longer valid: ask the tournament director for the new link.");
      } else {
        say(response.status === 200 || response.status === 304 ? "" : "The board cannot reach the server just now; trying again.");
      }
    } catch (error) {
      say("The board cannot reach the server just now; trying again.");
    }
    window.setTimeout(poll, pollMs);
  }

  fit();
  window.setInterval(drawHeat, 250);
  poll();
})();
