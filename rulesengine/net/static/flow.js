// The table of a game with a flow of its own (the 2010 game): the circle, the pot, each seat's stocks
// and captures, the stack, your own secret choice, and buttons for what you are asked. Only the view
// the server sent to this seat: another seat's secret choice is not in it before the hunt reveals it.

import { el, optionsPanel } from "./cards.js";

const SAID = { throw: "Throw a boomerang into the circle", stop: "Stop (take the pot)" };

function count(n, plural) {
  return `${n} ${n === 1 && plural.endsWith("s") ? plural.slice(0, -1) : plural}`;
}

// The bids of this round since this seat's own last one (all of them before its first).
function sinceLastTurn(view) {
  const moves = view.moves || [];
  let last = -1;
  moves.forEach((move, index) => {
    if (move.seat === view.seat) last = index;
  });
  const said = moves
    .slice(last + 1)
    .map((m) =>
      m.move === "throw"
        ? `${view.players[m.seat]} threw (pot ${m.pot})`
        : `${view.players[m.seat]} stopped and took ${m.took} from the pot`,
    );
  return said.length ? `${last >= 0 ? "Since your last turn" : "This round"}: ${said.join(", ")}.` : "";
}

function turnLine(view, mine) {
  if (mine.some((d) => d.kind === "secret")) return "Your turn: choose your ground in secret";
  if (mine.some((d) => d.kind === "bid")) return "Your turn: throw a boomerang or stop";
  if (view.phase === "secret") return "Waiting for the others' secret choices…";
  return `Waiting for ${view.players[view.turn] ?? "the others"}…`;
}

function seatPanel(view, deck, number) {
  const name = view.players[number];
  const stocks = Object.entries(view.stocks[number]).map(([stock, n]) => count(n, stock));
  let state = "";
  if (view.phase === "bid") {
    state = view.still_in.includes(number) ? " · in" : ` · stopped (#${view.stack.indexOf(number) + 1} on the stack)`;
    if (number === view.turn) state += " · to play";
  }
  return el(
    "section",
    { class: `seat${number === view.seat ? " me" : ""}`, "data-seat": String(number) },
    el("h3", {}, `${name}${number === view.seat ? " (you)" : ""}`, el("span", { class: "count" }, ` · ${stocks.join(", ")}${state}`)),
    el(
      "div",
      { class: "row" },
      view.captured[number].map((c) => deck.card(c, { small: true })),
    ),
  );
}

function decisionPanel(decision, answer) {
  const title = decision.kind === "secret" ? "Your ground for this hunt (secret)" : "Your bid";
  return optionsPanel({ "data-kind": decision.kind }, title, decision, (option) => SAID[option] || option, answer);
}

export function flowTable(view, deck, answer, notes) {
  const mine = view.pending.filter((d) => d.seat === view.seat);
  const last = (view.history || []).at(-1);
  const since = sinceLastTurn(view);
  return [
    el("p", { class: "turn", id: "turn" }, `Round ${view.round} · ${turnLine(view, mine)}`),
    ...notes,
    last
      ? el(
          "p",
          { class: "note" },
          `Last round: ${last.last_left} was left last. ` +
            Object.entries(last.captured)
              .map(([name, cards]) => `${name} (${last.choices[name]}) took ${count(cards.length, "cards")}`)
              .join("; ") +
            ".",
        )
      : null,
    since ? el("p", { class: "note", id: "since" }, since) : null,
    ...mine.map((d) => decisionPanel(d, answer)),
    el(
      "section",
      { class: "hand", id: "circle" },
      el("h2", {}, `The circle · deck ${count(view.deck, "cards")}${view.phase === "bid" ? ` · pot ${view.pot}` : ""}`),
      el("div", { class: "row" }, view.circle.map((c) => deck.card(c, { small: true }))),
      view.secret ? el("p", { class: "own-throw", id: "secret" }, `Your secret choice: ${view.secret}`) : null,
    ),
    el("section", { class: "others" }, view.players.map((_, number) => seatPanel(view, deck, number))),
  ].filter(Boolean);
}
