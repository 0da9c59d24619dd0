// The page: the lobby (open a table or join one), the table (your hand, the others' cards, the
// round-end choices, the score sheet) and the final sheet. It shows only what the server sent to
// this seat, and answers the decisions pending for it. The protocol itself is in protocol.js.

import { Deck, el, optionsPanel, scoreSheet } from "./cards.js";
import { Link, savedSeat } from "./protocol.js";
import { askedOf, PANELS, wordPanel } from "./rounds.js";

const main = document.getElementById("main");
const status = document.getElementById("status");
// round: the edition's blocks and the words of their decisions, from `joined` (what rounds.js draws)
const page = { table: null, seat: null, name: null, deck: null, round: null, view: null, lobby: null, over: null, error: "", advice: false };
const link = new Link(receive, connection);
const fromPath = location.pathname.match(/^\/t\/([A-Z2-9]{6,12})$/);

if (fromPath && new URLSearchParams(location.search).has("watch")) {
  page.table = fromPath[1];
  link.watch(page.table);
} else if (fromPath) {
  page.table = fromPath[1];
  if (!link.resume(page.table)) showJoin(page.table);
} else {
  showLobby();
}

function connection(state, pause) {
  if (state === "open") setStatus("connected", "ok");
  else if (state === "moved") setStatus("this seat is now played from another window", "bad");
  else setStatus(`the server cannot be reached; trying again in ${(pause / 1000).toFixed(1)} s…`, "bad");
}

function setStatus(text, kind) {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function receive(message) {
  switch (message.type) {
    case "hosted":
      page.table = message.table;
      link.join(message.table, page.name);
      break;
    case "joined":
      page.table = message.table;
      page.seat = message.seat;
      page.name = message.name;
      page.deck = new Deck(message.edition);
      page.round = message.round;
      page.link = message.link || `${location.origin}/t/${message.table}`;
      page.token = message.token || null; // in clear only in answer to a join: shown once, to copy
      showInvite();
      if (location.pathname !== `/t/${message.table}`) history.replaceState(null, "", `/t/${message.table}`);
      document.title = `Boomerang · ${message.table}`;
      break;
    case "watching":
      page.table = message.table;
      page.deck = new Deck(message.edition);
      page.link = message.link || `${location.origin}/t/${message.table}`;
      page.delay = message.delay;
      document.title = `Boomerang · ${message.table} · watching`;
      showInvite();
      break;
    case "spectate":
      page.view = message.view;
      document.body.dataset.states = String(Number(document.body.dataset.states || 0) + 1);
      showSpectate();
      break;
    case "lobby":
      page.lobby = message;
      if (!page.view) showWaiting();
      break;
    case "state":
      page.view = message.view;
      page.clock = message.clock || null; // the table's per-move clock, with the seconds left for this seat's question
      page.clockRead = Date.now();
      page.error = "";
      document.body.dataset.states = String(Number(document.body.dataset.states || 0) + 1); // for tests and tools
      if (!page.over) showTable();
      break;
    case "seat_status":
      page.note = `${message.name || `seat ${message.seat + 1}`} ${
        {
          bot: "is played by a bot for now",
          late: "ran out of time: a bot makes this move",
          forfeit: "ran out of time and forfeits: a bot plays the seat to the end",
        }[message.status] || `is ${message.status}`
      }`;
      if (page.view && !page.over) showTable();
      break;
    case "game_over":
      page.over = message;
      showFinal();
      break;
    case "error":
      onError(message);
      break;
  }
}

// The table's code and the link to share, in the header for the whole game.
function showInvite() {
  const invite = document.getElementById("invite");
  invite.replaceChildren(
    `Table ${page.table} · invite: `,
    el("a", { href: page.link, id: "invite-link" }, page.link),
    " ",
    el("button", { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(page.link) }, "Copy"),
  );
  invite.hidden = false;
}

// The seat's token, in clear only once (just joined): with it, the player takes the seat back in another browser.
function tokenNote() {
  if (!page.token) return null;
  return el(
    "section",
    { class: "panel token-note", id: "token-note" },
    el("h2", {}, "Your seat token"),
    el("p", {}, "To take your seat back from another browser or device, paste this token there. It is shown only now."),
    el("code", { id: "seat-token" }, page.token),
    " ",
    el(
      "button",
      { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(page.token) },
      "Copy",
    ),
    " ",
    el(
      "button",
      {
        type: "button",
        id: "token-done",
        onclick: () => {
          page.token = null;
          document.getElementById("token-note")?.remove();
        },
      },
      "I have copied it",
    ),
  );
}

function onError(message) {
  if (message.code === "bad_token" || (message.code === "unknown_table" && page.table && !page.view)) {
    link.forget(page.table);
    showJoin(page.table, message.message);
    return;
  }
  page.error = message.message;
  const box = document.getElementById("error");
  if (box) box.textContent = message.message;
  else main.prepend(el("p", { id: "error", class: "error", role: "alert" }, message.message));
}

// -- the lobby -------------------------------------------------------------------------------------
async function showLobby() {
  const editions = await fetch("/editions.json")
    .then((r) => r.json())
    .catch(() => []);
  const select = el(
    "select",
    { id: "edition", name: "edition" },
    editions.map((e) => el("option", { value: e.id }, `${e.name} (${e.min}–${e.max} players)`)),
  );
  const name = el("input", { id: "host-name", name: "name", required: "", maxlength: "24", placeholder: "Your name" });
  const players = el("input", { id: "players", type: "number", min: "2", max: "12", value: "3" });
  const bots = el("input", { id: "bots", type: "number", min: "0", max: "11", value: "2" });
  const kind = el(
    "select",
    { id: "bot-kind" },
    ["greedy", "random", "search"].map((k) => el("option", { value: k }, k)),
  );
  const clock = el(
    "select",
    { id: "clock-move" },
    [
      [0, "no clock"],
      [30, "30 s a move (live)"],
      [120, "2 min a move"],
      [86400, "24 h a move (a slow game)"],
      [3 * 86400, "3 days a move"],
    ].map(([seconds, text]) => el("option", { value: String(seconds) }, text)),
  );
  const onTime = el(
    "select",
    { id: "clock-on-time" },
    el("option", { value: "bot" }, "a bot makes the move"),
    el("option", { value: "forfeit" }, "the seat forfeits"),
  );
  const create = el(
    "form",
    {
      class: "panel",
      id: "create",
      onsubmit: (event) => {
        event.preventDefault();
        page.name = name.value.trim();
        link.host(select.value, Number(players.value), Number(bots.value), kind.value, Number(clock.value), onTime.value);
      },
    },
    el("h2", {}, "Open a table"),
    label("Edition", select),
    label("Your name", name),
    label("Players", players),
    label("Bots among them", bots),
    label("Bots play", kind),
    label("Clock", clock),
    label("When it runs out", onTime),
    el("button", { type: "submit", id: "create-button" }, "Open the table"),
  );
  main.replaceChildren(el("section", { class: "lobby" }, create, joinForm("", "")));
}

function joinForm(table, problem) {
  const code = el("input", {
    id: "code",
    name: "code",
    required: "",
    pattern: "[A-Za-z2-9]{6,12}",
    maxlength: "12",
    value: table,
    placeholder: "K7QX2MPA",
  });
  const name = el("input", { id: "join-name", name: "name", maxlength: "24", placeholder: "Your name" });
  const token = el("input", {
    id: "seat-token-input",
    name: "token",
    maxlength: "64",
    autocomplete: "off",
    placeholder: "only to take your seat back",
  });
  return el(
    "form",
    {
      class: "panel",
      id: "join",
      onsubmit: (event) => {
        event.preventDefault();
        page.table = code.value.toUpperCase();
        if (token.value.trim()) {
          link.resumeWith(page.table, token.value.trim());
          return;
        }
        page.name = name.value.trim();
        if (!page.name) {
          name.focus();
          return;
        }
        link.join(page.table, page.name);
      },
    },
    el("h2", {}, "Join a table"),
    problem ? el("p", { class: "error" }, problem) : null,
    label("Table code", code),
    label("Your name", name),
    label("Or your seat token", token),
    el("button", { type: "submit", id: "join-button" }, "Sit down"),
  );
}

function showJoin(table, problem = "") {
  main.replaceChildren(el("section", { class: "lobby" }, joinForm(table, problem)));
}

// A clock's settings in words, as the terminal says them (net/clocks.py: describe, span).
function span(seconds) {
  const s = Math.floor(seconds);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 2 * 86400) return `${Math.floor(s / 3600)} h` + (s % 3600 ? ` ${Math.floor((s % 3600) / 60)} min` : "");
  return `${Math.floor(s / 86400)} d` + (s % 86400 >= 3600 ? ` ${Math.floor((s % 86400) / 3600)} h` : "");
}

function clockWords(clock) {
  return `${span(clock.move)} a move; then ${clock.on_time === "bot" ? "a bot plays it" : "the seat forfeits"}`;
}

// The seconds left on this seat's clock, counted down on the page between two states.
function clockLeft() {
  const left = page.clock.left - (Date.now() - page.clockRead) / 1000;
  return `Your clock: ${span(Math.max(0, left))} left for this move (${clockWords(page.clock)})`;
}

setInterval(() => {
  const shown = document.getElementById("clock-left");
  if (shown && page.clock && page.clock.left !== null) shown.textContent = clockLeft();
}, 1000);

function label(text, input) {
  return el("label", {}, el("span", {}, text), input);
}

function showWaiting() {
  const lobby = page.lobby;
  const share = page.link || `${location.origin}/t/${lobby.table}`;
  main.replaceChildren(
    ...[tokenNote()].filter(Boolean),
    el(
      "section",
      { class: "panel waiting" },
      el("h2", {}, `Table ${lobby.table}`),
      el("p", {}, "Share this link with the other players: ", el("a", { href: share, id: "share" }, share)),
      lobby.clock ? el("p", { id: "clock" }, `Clock: ${clockWords(lobby.clock)}`) : null,
      el(
        "ul",
        { class: "seats" },
        lobby.seats.map((s) =>
          el(
            "li",
            { class: s.status },
            `Seat ${s.seat + 1}: ${s.name || "(free)"} · ${s.kind === "bot" ? "bot" : s.status}` +
              (s.seat === page.seat ? " (you)" : ""),
          ),
        ),
      ),
      el("p", {}, "The game starts when every seat is taken. ", el("a", { href: `${share}?watch`, id: "watch-link" }, "A link to watch it")),
    ),
  );
}

// -- the table ----------------------------------------------------------------------------------
function showTable() {
  const view = page.view;
  const deck = page.deck;
  const round = page.round;
  const mine = view.pending.filter((d) => d.seat === view.seat);
  const first = mine[0];
  const turn = first ? `Your turn: ${askedOf(round, first).title}` : "Waiting for the other players…";
  const of = view.rounds ? ` of ${view.rounds}` : "";
  const passing = view.direction === undefined ? "" : ` · passing ${view.direction === 1 ? "left" : "right"}`;
  const decisions = mine
    .filter((d) => askedOf(round, d).answer !== "card") // a card is picked from the hand
    .map((d) => (askedOf(round, d).points ? choicePanel(d) : wordPanel(d, askedOf(round, d), answer)));
  const panels = round.blocks.flatMap((name) => {
    const panel = name === "pick_and_pass" ? drafting : PANELS[name];
    return panel ? [panel(view, deck, mine, round)].flat() : [];
  });
  main.replaceChildren(
    ...[
      el("p", { class: "turn", id: "turn" }, `Round ${view.round}${of}${passing} · ${turn}`),
      page.clock && page.clock.left !== null ? el("p", { class: "clock", id: "clock-left" }, clockLeft()) : null,
      page.error ? el("p", { id: "error", class: "error", role: "alert" }, page.error) : null,
      page.note ? el("p", { class: "note" }, page.note) : null,
      tokenNote(),
      ...decisions,
      ...panels,
      view.sheet.players.some((p) => p.rounds.length)
        ? el(
            "section",
            { class: "panel" },
            el("h2", {}, "Score sheet"),
            scoreSheet(view.sheet, deck.edition, { over: false }),
          )
        : null,
    ].filter(Boolean),
  );
}

// The pick-and-pass block's panels: the hand (its cards the buttons of a pick or a discard, with the `?` advice)
// and every seat's cards of the round (a face-down Throw as a card back; the cards it discarded, in a round that
// discards).
function drafting(view, deck, mine) {
  const pick = mine.find((d) => askedOf(page.round, d).answer === "card");
  const others = view.table.map((seat, number) =>
    el(
      "section",
      { class: `seat${number === view.seat ? " me" : ""}`, "data-seat": String(number) },
      el(
        "h3",
        {},
        `${seat.name}${number === view.seat ? " (you)" : ""}`,
        el("span", { class: "count" }, ` · ${seat.hand_size} in hand`),
      ),
      el(
        "div",
        { class: "row" },
        seat.throw_down ? deck.back() : null,
        seat.face_up.map((c) => deck.card(c, { small: true })),
      ),
      discardedRow(seat, deck),
      number === view.seat ? null : openHandRow(seat, deck),
    ),
  );
  const hand = el(
    "section",
    { class: "hand", id: "hand" },
    el(
      "h2",
      {},
      pick && pick.kind === "discard" ? `Your hand · ${askedOf(page.round, pick).title}` : "Your hand",
      pick && pick.advice
        ? el(
            "button",
            { type: "button", id: "advice-button", class: "help", onclick: () => toggleAdvice(), title: "key: ?" },
            page.advice ? "Hide the advice" : "? What is each card worth?",
          )
        : null,
    ),
    pick && pick.advice && page.advice ? advicePanel(pick, deck) : null,
    el(
      "div",
      { class: "row" },
      view.hand.map((c) =>
        deck.card(c, { onPick: pick && pick.options.includes(c) ? (letter) => answer(pick, letter) : null }),
      ),
    ),
    view.throw
      ? el(
          "p",
          { class: "own-throw" },
          "Your Throw (face down to the others): ",
          deck.card(view.throw, { small: true }),
        )
      : null,
  );
  return [hand, el("section", { class: "others" }, others)];
}

// A seat's hand, face up on the table (only a round with open hands shows it).
function openHandRow(seat, deck) {
  if (!seat.hand) return null;
  return el(
    "div",
    { class: "row open-hand", "data-hand": seat.hand.join(" ") },
    el("span", { class: "count" }, "hand: "),
    seat.hand.map((c) => deck.card(c, { small: true })),
  );
}

// The cards a seat discarded this round, face up (only a round that discards has them).
function discardedRow(seat, deck) {
  if (!seat.discarded || !seat.discarded.length) return null;
  return el(
    "div",
    { class: "row discarded", "data-discarded": seat.discarded.join(" ") },
    el("span", { class: "count" }, "discarded: "),
    seat.discarded.map((c) => deck.card(c, { small: true })),
  );
}

function choicePanel(decision) {
  const points = decision.points || {};
  const label = (option) =>
    option === null ? "Nothing this round (keep every icon for later)" : `${option}: ${points[option] ?? 0} points`;
  const category = (page.deck.edition.categories || []).find((c) => c.key === decision.category);
  const title = `Round ${decision.round}: ${category && category.title ? category.title : decision.category}`;
  return optionsPanel({ "data-category": decision.category }, title, decision, label, answer);
}

function answer(decision, value) {
  page.advice = false;
  link.decide(decision, value);
}

// The terminal's `?`: what each card of the hand would change on your sheet now, and the expected
// score of the whole round if you take it. The numbers come from the server (bots.advice), computed
// from this seat's view alone, so they are the terminal's.
function toggleAdvice() {
  page.advice = !page.advice;
  showTable();
}

function advicePanel(pick, deck) {
  const { lines, cards } = pick.advice;
  const throwing = pick.kind === "throw";
  const best = Math.max(...cards.map((c) => c.expected));
  const title = throwing
    ? "If you throw it (the lines known now, as if it were your only card; races as if you alone qualified)"
    : pick.kind === "discard"
      ? "If you took it instead (discard the card worth least to you, or one a rival wants)"
      : "If you take it now (as if it were your last card; races as if you alone qualified)";
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  return el(
    "section",
    { class: "advice", id: "advice" },
    el("h3", {}, title),
    el(
      "table",
      { class: "sheet" },
      el("thead", {}, el("tr", {}, el("th", {}, "card"), lines.map(([, t]) => el("th", {}, t)), el("th", {}, "expected round score"))),
      el(
        "tbody",
        {},
        cards.map((c) =>
          el(
            "tr",
            { "data-card": c.letter, class: c.expected === best ? "best" : "" },
            el("th", {}, `${c.letter} ${deck.cards.get(c.letter)?.name ?? ""}`),
            lines.map(([key]) => el("td", { "data-key": key }, c.changes[key] ? signed(c.changes[key]) : "")),
            el("td", { "data-key": "expected" }, c.expected.toFixed(1)),
          ),
        ),
      ),
    ),
    el(
      "p",
      { class: "note" },
      "Expected round score: the greedy bot's estimate of everything this round adds to your total (not only " +
        "this card's share) if you take the card now and the rest at random from the cards still in play." +
        (throwing ? " Lines that need your Catch, the round's last card, are not known yet: not shown." : ""),
    ),
  );
}

document.addEventListener("keydown", (event) => {
  if (!page.view || page.over || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey)
    return;
  const view = page.view;
  const pick = view.pending.find((d) => d.seat === view.seat && askedOf(page.round, d).answer === "card");
  if (event.key === "?" && pick && pick.advice) {
    toggleAdvice();
    return;
  }
  const letter = event.key.length === 1 ? event.key.toUpperCase() : "";
  if (pick && pick.options.includes(letter)) answer(pick, letter);
});

// -- a spectator: the table as everyone sees it, never a hand ------------------------------------------
function showSpectate() {
  const view = page.view;
  const deck = page.deck;
  const when = page.delay === "round" ? "as it was when this round began" : "live";
  const seats = (view.table || []).map((seat, number) =>
    el(
      "section",
      { class: "seat", "data-seat": String(number) },
      el("h3", {}, seat.name, el("span", { class: "count" }, ` · ${seat.hand_size} in hand`)),
      el(
        "div",
        { class: "row" },
        seat.throw_down ? deck.back() : null,
        seat.face_up.map((c) => deck.card(c, { small: true })),
      ),
      discardedRow(seat, deck),
      openHandRow(seat, deck),
    ),
  );
  main.replaceChildren(
    ...[
      el("p", { class: "turn", id: "turn" }, `Watching table ${page.table} (${when}) · round ${view.round}`),
      el("section", { class: "others", id: "spectate" }, seats),
      view.sheet && view.sheet.players.some((p) => p.rounds.length)
        ? el("section", { class: "panel" }, el("h2", {}, "Score sheet"), scoreSheet(view.sheet, deck.edition))
        : null,
    ].filter(Boolean),
  );
}

// -- the end --------------------------------------------------------------------------------------
function showFinal() {
  const sheet = page.over.sheet;
  const winners = sheet.winners.join(" and ");
  main.replaceChildren(
    el(
      "section",
      { class: "panel final", id: "final" },
      el("h2", {}, `Game over: ${winners} ${sheet.winners.length > 1 ? "win" : "wins"}`),
      scoreSheet(sheet, page.deck.edition),
      el("p", {}, el("a", { href: "/" }, "Open another table")),
    ),
  );
}
