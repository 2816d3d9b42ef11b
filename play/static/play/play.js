// The player page (play/views.py): reads the game about once a second and sends the seat's moves
// to /play/game/ and /play/move/ (same origin, CSRF token; the seat token stays in its HttpOnly
// cookie). The clock shown is the server's: the time left at the last answer (`ends_at` minus
// `server_time`) less the time since that answer arrived, re-read at every answer.
(function () {
  "use strict";

  const body = document.body;
  const gameUrl = body.dataset.gameUrl;
  const moveUrl = body.dataset.moveUrl;
  const csrf = body.dataset.csrf;
  const mySeat = Number(body.dataset.seat);
  const root = document.getElementById("game");
  const message = document.getElementById("message");
  const POLL_MS = 1000;
  const REVEAL_POLL_MS = 5000;

  let game = null; // the last answer
  let leftAtAnswer = null; // ms left on the server's clock when that answer was made
  let answeredAt = 0; // performance.now() when it arrived
  let sending = false;

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };

  const PLAIN = {
    time_up: "Time is up: the clock ran out before that move, so the game is over.",
    game_over: "The game is over: no more moves.",
    stale_game: "The game had moved on: the board now shows where it stands. Try again.",
    not_your_turn: "It is not your turn.",
    seat_token_required: "This device no longer holds a seat token: enter yours again.",
    malformed_request: "That is not a move of this game.",
  };

  function el(tag, attributes, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function cardFace(card, extra) {
    if (!card) return el("span", { class: "card empty " + (extra || ""), text: "" });
    const rank = card[0] === "T" ? "10" : card[0];
    const suit = card[1];
    const red = suit === "H" || suit === "D";
    return el(
      "span",
      {
        class: "card " + (red ? "red " : "black ") + (extra || ""),
        "aria-label": (RANK_NAMES[card[0]] || rank) + " of " + SUIT_NAMES[suit],
        "data-card": card,
      },
      [el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: SUITS[suit] })],
    );
  }

  function say(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  function problemText(problem) {
    if (problem.code === "move_not_allowed") return "That move is not allowed: " + problem.detail;
    return PLAIN[problem.code] || problem.detail || "The move was not taken.";
  }

  function clockText() {
    if (leftAtAnswer === null) return "–:––";
    const left = Math.max(0, leftAtAnswer - (performance.now() - answeredAt));
    const seconds = Math.ceil(left / 1000);
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function tick() {
    const clock = document.getElementById("clock");
    if (clock && game && game.state === "playing") clock.textContent = clockText();
  }

  function accept(answer) {
    if (game && answer.id === game.id && answer.seq < game.seq) return; // an older read, late
    // The same move count and state: only the clock moved. The board stays as it is (and keeps
    // the focus of a player who moves with the Tab key).
    const same = game && answer.id === game.id && answer.seq === game.seq && answer.state === game.state && !!answer.reveal === !!game.reveal;
    game = answer;
    answeredAt = performance.now();
    const until = answer.ends_at || (answer.needs && answer.needs.deadline);
    leftAtAnswer = until ? Date.parse(until) - Date.parse(answer.server_time) : null;
    if (same) tick();
    else render();
  }

  // The server answers 304 while the game is as the page last got it (its ETag): the clock
  // then keeps counting from that answer's server time.
  let shownTag = null;

  async function poll() {
    try {
      const headers = shownTag ? { "If-None-Match": shownTag } : {};
      const response = await fetch(gameUrl, { credentials: "same-origin", cache: "no-store", headers });
      if (response.status === 304) {
        tick();
      } else {
        const answer = await response.json();
        if (response.ok) {
          shownTag = response.headers.get("ETag");
          accept(answer);
        } else {
          say(problemText(answer));
        }
      }
    } catch (error) {
      say("The game cannot be reached just now; trying again.");
    }
    // A tournament entry's game over: the way back to where the entry stands.
    const standingLink = document.getElementById("standing-link");
    if (standingLink && game && game.state !== "playing") standingLink.hidden = false;
    // Over, the deck is shown once every game dealt from it has ended (a duplicate heat).
    if (!game || game.state === "playing") window.setTimeout(poll, POLL_MS);
    else if (!game.reveal) window.setTimeout(poll, REVEAL_POLL_MS);
  }

  async function send(move) {
    if (sending || !game || game.state !== "playing") return;
    sending = true;
    root.classList.add("sending");
    try {
      const response = await fetch(moveUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(Object.assign({ expected_seq: game.seq }, move)),
      });
      const answer = await response.json();
      if (response.ok) {
        say("");
        accept(answer);
      } else {
        say(problemText(answer));
        const fresh = await fetch(gameUrl, { credentials: "same-origin", cache: "no-store" });
        if (fresh.ok) accept(await fresh.json());
      }
    } catch (error) {
      say("The move could not be sent; check the board and try again.");
    } finally {
      sending = false;
      root.classList.remove("sending");
    }
  }

  function stat(label, value, id) {
    return el("div", { class: "stat" }, [
      el("span", { class: "label", text: label }),
      el("span", { class: "value", id: id, text: String(value) }),
    ]);
  }

  // --- Blackjack Attack ------------------------------------------------------------------------

  function renderAttack() {
    const board = game.board;
    const needs = game.needs || { columns: [], moves: [], must_bust: false };
    const legal = new Set(needs.columns || []);
    const header = el("div", { class: "stats" }, [
      el("div", { class: "stat current" }, [
        el("span", { class: "label", text: "Card" }),
        el("span", { id: "current" }, [cardFace(board.current, "big")]),
      ]),
      stat("Cards left", board.cards_left, "cards-left"),
      stat("Time", clockText(), "clock"),
      stat("Points", game.score.total, "points"),
      stat("Streak", board.streak ? "On" : "–", "streak"),
    ]);
    const columns = el(
      "div",
      { class: "columns" },
      board.columns.map((column) => {
        const allowed = legal.has(column.column);
        const shown = column.total === column.hard_total ? String(column.total) : column.total + " (" + column.hard_total + ")";
        return el(
          "button",
          {
            type: "button",
            class: "column" + (allowed ? "" : " blocked") + (needs.must_bust ? " bust" : ""),
            "data-column": column.column,
            "aria-disabled": allowed ? null : "true",
            title: allowed ? "Place the card here (key " + column.column + ")" : "The card cannot go here",
          },
          [
            el("span", { class: "column-head" }, [
              el("span", { class: "key", text: String(column.column) }),
              column.cards.length
                ? el("span", { class: "total", text: shown })
                : el("span", { class: "total empty", text: "empty" }),
            ]),
            el("span", { class: "pile" }, column.cards.map((card) => cardFace(card, "small"))),
            allowed ? null : el("span", { class: "note", text: "Does not fit" }),
          ],
        );
      }),
    );
    const canUndo = (needs.moves || []).includes("undo");
    const tools = el("div", { class: "tools" }, [
      el("button", { type: "button", id: "undo", class: "secondary", disabled: !canUndo, text: "Undo (U)" }),
      el("span", { class: "hint", text: "Tap a column or press 1–4." }),
    ]);
    const bust = needs.must_bust
      ? el("p", { class: "warning", id: "must-bust", role: "status", text: "This card fits on no column: it must bust. Pick any column." })
      : null;
    return [header, bust, columns, tools];
  }

  // --- Blackjack Squares -----------------------------------------------------------------------

  function lineOf(name) {
    return game.board.lines.find((line) => line.line === name);
  }

  function lineCell(name) {
    const line = lineOf(name);
    const value = line.value === null ? "" : line.value > 0 ? "+" + line.value : String(line.value);
    return el("div", { class: "line" + (line.value === 21 ? " hit" : ""), "data-line": name }, [
      el("span", { class: "total", text: line.positions.length && line.total ? String(line.total) : "–" }),
      el("span", { class: "value", text: value }),
    ]);
  }

  function renderSquares() {
    const board = game.board;
    const needs = game.needs || { moves: [], positions: [], swappable: [] };
    const empty = new Set(needs.positions || []);
    const swappable = new Set(needs.swappable || []);
    const cashed = game.score.squares || [];
    const header = el("div", { class: "stats" }, [
      el("div", { class: "stat current" }, [
        el("span", { class: "label", text: "Card" }),
        el("span", { id: "current" }, [cardFace(board.current, "big")]),
      ]),
      stat("Square", board.square + " of 5", "square"),
      stat("Swaps left", board.swaps_left, "swaps-left"),
      stat("Time", clockText(), "clock"),
      stat("Cashed", cashed.length ? cashed.join(", ") : "–", "cashed"),
      stat("Total", game.score.total, "points"),
    ]);
    const cells = [];
    for (let row = 0; row < 3; row += 1) {
      for (let col = 0; col < 3; col += 1) {
        const position = row * 3 + col + 1;
        const card = board.positions[position - 1];
        const action = card ? (swappable.has(position) ? "swap" : "") : empty.has(position) ? "place" : "";
        cells.push(
          el(
            "button",
            {
              type: "button",
              class: "cell " + (card ? "filled" : "open"),
              "data-position": position,
              "data-action": action,
              "aria-disabled": action ? null : "true",
              title: action === "swap" ? "Swap this card for the deck's bottom card" : action === "place" ? "Place the card here" : "",
            },
            [card ? cardFace(card, "mid") : el("span", { class: "slot", text: String(position) })],
          ),
        );
      }
      cells.push(lineCell("row" + (row + 1)));
    }
    for (let col = 0; col < 3; col += 1) cells.push(lineCell("col" + (col + 1)));
    cells.push(el("div", { class: "corner" }));
    const grid = el("div", { class: "grid" }, cells);
    const canCash = (needs.moves || []).includes("cash_in");
    const tools = el("div", { class: "tools" }, [
      el("button", { type: "button", id: "cash-in", class: "primary", disabled: !canCash, text: "Cash in this square" }),
      el("span", { class: "hint", text: "Tap an empty place for the card; tap a card to swap it." }),
    ]);
    return [header, grid, tools];
  }

  // --- Make 21 ---------------------------------------------------------------------------------

  let selected = []; // the cards of the hand chosen for the next play, double or extension
  const OUTCOMES = {
    stays: "the card stays",
    seven: "a 7: the pile goes back",
    hit_21: "Hit 21",
    double_21: "Double 21",
    set_mode: "a set: set mode",
    extended: "the set is extended",
    bust: "bust",
    take: "takes the set",
  };

  function cardsText(cards) {
    return (cards || []).map((card) => (card[0] === "T" ? "10" : card[0]) + SUITS[card[1]]).join(" ");
  }

  function lastText(last) {
    if (!last) return "No move yet in this game.";
    const who = "Seat " + last.seat + (last.automatic ? " (the clock moved for them)" : "");
    if (last.move === "take") return who + " took the set: " + last.cards_taken + " cards.";
    const what = " " + (last.move === "play" ? "played" : last.move === "double" ? "doubled with" : "extended with") + " " + cardsText(last.cards) + (last.pile ? " on " + last.pile : "");
    const outcome = OUTCOMES[last.outcome] || last.outcome;
    const taken = last.taken_by ? ": seat " + last.taken_by + " takes " + last.cards_taken : "";
    return who + what + " — " + outcome + taken + ".";
  }

  function setModeText(mode) {
    if (!mode) return null;
    if (mode.kind === "flush") return "Set: flush " + SUITS[mode.suit];
    if (mode.kind === "rank") return "Set: " + (RANK_NAMES[mode.rank] || mode.rank) + "s";
    return "Set: run";
  }

  function renderMake21() {
    const board = game.board;
    const needs = game.needs || {};
    const moves = new Set(needs.moves || []);
    const mine = needs.seat === mySeat;
    const hand = game.hand || [];
    selected = selected.filter((card) => hand.includes(card));
    const header = el("div", { class: "stats" }, [
      stat("Game", board.game_no + " of " + board.games, "game-no"),
      stat("Turn", mine ? "Yours" : "Seat " + needs.seat, "turn"),
      stat("Turn clock", clockText(), "clock"),
      stat("Draw pile", board.draw_pile, "draw-pile"),
      stat("Dealer", "Seat " + board.dealer, "dealer"),
    ]);
    const piles = el(
      "div",
      { class: "piles" },
      board.piles.map((pile) => {
        const facing = needs.pile === pile.pile;
        const playable = moves.has("play") && selected.length > 0;
        const extendable = facing && moves.has("extend") && selected.length > 0;
        const target = playable || extendable;
        return el(
          "button",
          {
            type: "button",
            class: "pile21" + (pile.set_mode ? " set" : "") + (facing ? " facing" : "") + (target ? "" : " blocked"),
            "data-pile": pile.pile,
            "aria-disabled": target ? null : "true",
            title: extendable ? "Extend this set with the chosen cards" : playable ? "Play the chosen cards here" : "",
          },
          [
            el("span", { class: "pile-head" }, [
              el("span", { class: "key", text: pile.pile }),
              el("span", { class: "total", text: pile.cards.length ? String(pile.total) : "empty" }),
            ]),
            el("span", { class: "pile-cards" }, pile.cards.map((card) => cardFace(card, "small"))),
            pile.set_mode ? el("span", { class: "note set-mode", text: setModeText(pile.set_mode) }) : null,
          ],
        );
      }),
    );
    const handCards = el(
      "div",
      { class: "hand", id: "hand" },
      hand.length
        ? hand.map((card) =>
            el("button", { type: "button", class: "held" + (selected.includes(card) ? " chosen" : ""), "data-card": card, "aria-pressed": selected.includes(card) ? "true" : "false" }, [cardFace(card, "big")]),
          )
        : [el("p", { class: "hint", text: "Your hand is empty: you wait for the game to end." })],
    );
    const tools = el("div", { class: "tools" }, [
      el("button", { type: "button", id: "double", class: "secondary", disabled: !(moves.has("double") && selected.length), text: "Double (to the center)" }),
      el("button", { type: "button", id: "take", class: "secondary", disabled: !moves.has("take"), text: "Take the set" }),
      el("span", {
        class: "hint",
        text: mine
          ? needs.mode === "set_mode"
            ? "A set faces you on " + needs.pile + ": extend it with the cards you choose, or take it."
            : "Choose one or two cards, then a pile (or Double)."
          : "Seat " + needs.seat + " is playing.",
      }),
    ]);
    const seats = el("table", { class: "seats" }, [
      el("thead", {}, [el("tr", {}, [el("th", { text: "Seat" }), el("th", { text: "Cards in hand" }), el("th", { text: "Collected this game" }), el("th", { text: "Match" })])]),
      el(
        "tbody",
        {},
        board.seats.map((seat) =>
          el("tr", { class: (seat.seat === needs.seat ? "moving " : "") + (seat.seat === mySeat ? "you" : ""), "data-seat": seat.seat }, [
            el("th", { scope: "row", text: seat.seat === mySeat ? seat.seat + " (you)" : String(seat.seat) }),
            el("td", { text: String(seat.hand_size) }),
            el("td", { text: String(seat.collected) }),
            el("td", { text: String((game.score.total || {})[String(seat.seat)] || 0) }),
          ]),
        ),
      ),
    ]);
    const last = el("p", { class: "last", id: "last", role: "status", text: lastText(board.last) });
    return [header, last, piles, el("h2", { class: "hand-title", text: "Your hand" }), handCards, tools, seats];
  }

  function renderMake21End() {
    const score = game.score;
    const seats = Object.keys(score.total || {}).sort((a, b) => Number(a) - Number(b));
    const rows = seats.map((seat) =>
      el("tr", { class: (score.winners || []).includes(Number(seat)) ? "won" : (score.losers || []).includes(Number(seat)) ? "lost" : "" }, [
        el("th", { scope: "row", text: "Seat " + seat }),
        ...(score.games || []).map((one) => el("td", { text: String(one.collected[seat]) })),
        el("td", { class: "sum", text: String(score.total[seat]) }),
      ]),
    );
    const head = el("tr", {}, [el("th", { text: "" }), ...(score.games || []).map((one) => el("th", { text: "Game " + one.game_no })), el("th", { text: "Cards" })]);
    const names = (list) => (list || []).map((seat) => "seat " + seat).join(", ") || "nobody";
    const reveals = (game.reveals || []).map((reveal) =>
      el("div", { class: "reveal", "data-game-no": reveal.game_no }, [
        el("h3", { text: "Game " + reveal.game_no }),
        el("dl", {}, [
          el("dt", { text: "Commitment" }),
          el("dd", { class: "hex", text: reveal.commitment }),
          el("dt", { text: "Order (top card first)" }),
          el("dd", { class: "order", text: reveal.order.join(",") }),
          el("dt", { text: "Salt" }),
          el("dd", { class: "hex", text: reveal.salt }),
        ]),
        el("p", { class: "checked", "data-check": reveal.game_no, text: "" }),
      ]),
    );
    if (window.crypto && window.crypto.subtle) {
      for (const reveal of game.reveals || []) {
        const text = new TextEncoder().encode(reveal.order.join(",") + ":" + reveal.salt);
        window.crypto.subtle.digest("SHA-256", text).then((digest) => {
          const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
          const checked = root.querySelector('[data-check="' + reveal.game_no + '"]');
          if (checked) checked.textContent = hex === reveal.commitment ? "Checked on this device: this deal matches its commitment." : "Warning: this deal does not match its commitment.";
        });
      }
    }
    return [
      el("h1", { text: "Make 21: the match is over" }),
      el("p", { id: "how", class: "how", text: "Fewest cards collected wins. Won: " + names(score.winners) + ". Lost: " + names(score.losers) + "." }),
      el("table", { class: "score", id: "match-score" }, [el("thead", {}, [head]), el("tbody", {}, rows)]),
      el("section", { class: "verify" }, [el("h2", { text: "Check the deals" }), el("p", { text: "Each game's commitment was published before its first card: the SHA-256 of its order (cards joined by commas), a colon and its salt." }), ...reveals]),
    ];
  }

  // --- the end ---------------------------------------------------------------------------------

  function scoreParts() {
    const score = game.score;
    if (game.game === "attack") {
      return [
        ["Catch 21", score.catch_21 + " × 50", score.catch_21 * 50],
        ["Black Jack Attack", score.black_jack_attack + " × 75", score.black_jack_attack * 75],
        ["Five Card Charlie", score.five_card_charlie + " × 100", score.five_card_charlie * 100],
        ["Streak plays", score.streak_plays + " × 25", score.streak_plays * 25],
        ["No-Bust bonus", "", score.no_bust_bonus === null ? "none" : score.no_bust_bonus],
        ["Time bonus", "", score.time_bonus === null ? "none" : score.time_bonus],
      ];
    }
    return (score.squares || []).map((points, index) => ["Square " + (index + 1), "", points]);
  }

  function renderEnd() {
    const reveal = game.reveal;
    const rows = scoreParts().map(([label, count, points]) =>
      el("tr", {}, [el("th", { scope: "row", text: label }), el("td", { text: count }), el("td", { text: String(points) })]),
    );
    rows.push(el("tr", { class: "sum" }, [el("th", { scope: "row", text: "Score" }), el("td"), el("td", { id: "final-score", text: String(game.score.total) })]));
    const verify = el("section", { class: "verify" }, [
      el("h2", { text: "Check the deal" }),
      el("p", {
        text:
          "Before the first card, the game published the commitment below. It is the SHA-256 (lower-case hex) of the ASCII text of the deck order, cards joined by commas, then a colon, then the salt in lower-case hex: sha256(\"" +
          (reveal ? reveal.order.slice(0, 2).join(",") : "AS,TD") + ",…:\" + salt). Anyone can recompute it.",
      }),
      el("dl", {}, [
        el("dt", { text: "Commitment" }),
        el("dd", { class: "hex", id: "commitment", text: game.commitment }),
        el("dt", { text: "Order (top card first)" }),
        el("dd", { class: "order", id: "order", text: reveal ? reveal.order.join(",") : "Not revealed yet." }),
        el("dt", { text: "Salt" }),
        el("dd", { class: "hex", id: "salt", text: reveal ? reveal.salt : "Not revealed yet." }),
      ]),
      el("p", { id: "checked", class: "checked", text: "" }),
    ]);
    if (reveal && window.crypto && window.crypto.subtle) {
      const text = new TextEncoder().encode(reveal.order.join(",") + ":" + reveal.salt);
      window.crypto.subtle.digest("SHA-256", text).then((digest) => {
        const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
        const checked = document.getElementById("checked");
        if (checked) checked.textContent = hex === game.commitment ? "Checked on this device: the order and salt match the commitment." : "Warning: the order and salt do not match the commitment.";
      });
    }
    const timeUp = game.ends_at && Date.parse(game.server_time) >= Date.parse(game.ends_at);
    const how = timeUp
      ? game.game === "attack"
        ? "Time is up: the points so far count, with no bonus."
        : "Time is up: every square not cashed in scores −126."
      : game.game === "attack"
        ? "The deck is played out."
        : "All five squares are cashed in.";
    return [
      el("h1", { text: game.game === "attack" ? "Blackjack Attack: game over" : "Blackjack Squares: game over" }),
      el("p", { id: "how", class: "how", text: how }),
      el("table", { class: "score" }, [el("tbody", {}, rows)]),
      verify,
    ];
  }

  function render() {
    root.dataset.seq = String(game.seq);
    root.dataset.state = game.state;
    root.dataset.game = game.game;
    root.classList.toggle("finished", game.state !== "playing");
    let parts;
    if (game.state !== "playing") parts = game.game === "make21" ? renderMake21End() : renderEnd();
    else if (game.game === "make21") parts = renderMake21();
    else if (game.game === "attack") parts = renderAttack();
    else if (game.game === "squares") parts = renderSquares();
    else parts = [el("p", { text: "This game is played at the table, not on this page." })];
    root.replaceChildren(...parts.filter(Boolean));
  }

  root.addEventListener("click", (event) => {
    if (!game || game.state !== "playing") return;
    const target = event.target.closest("button");
    if (!target || !root.contains(target)) return;
    if (game.game === "make21") {
      clickMake21(target);
      return;
    }
    if (target.id === "undo") send({ move: "undo" });
    else if (target.id === "cash-in") send({ move: "cash_in" });
    else if (target.dataset.column) send({ move: "place", column: Number(target.dataset.column) });
    else if (target.dataset.position && target.dataset.action) {
      send({ move: target.dataset.action, position: Number(target.dataset.position) });
    }
  });

  function clickMake21(target) {
    if (target.dataset.card) {
      const card = target.dataset.card;
      selected = selected.includes(card) ? selected.filter((c) => c !== card) : [...selected, card].slice(-2);
      render();
    } else if (target.id === "take") {
      send({ move: "take" });
    } else if (target.id === "double" && selected.length) {
      send({ move: "double", cards: selected });
    } else if (target.dataset.pile && selected.length && target.getAttribute("aria-disabled") !== "true") {
      const extending = game.needs && game.needs.mode === "set_mode" && game.needs.pile === target.dataset.pile;
      send(extending ? { move: "extend", cards: selected } : { move: "play", cards: selected, pile: target.dataset.pile });
    }
  }

  document.addEventListener("keydown", (event) => {
    if (!game || game.game !== "attack" || game.state !== "playing") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    if (["1", "2", "3", "4"].includes(event.key)) {
      event.preventDefault();
      send({ move: "place", column: Number(event.key) });
    } else if (event.key === "u" || event.key === "U") {
      event.preventDefault();
      send({ move: "undo" });
    }
  });

  window.setInterval(tick, 250);
  poll();
})();
