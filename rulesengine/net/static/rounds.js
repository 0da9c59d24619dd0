// Each block's part of the table, drawn from this seat's view alone: one panel per block of the edition's
// round, by the name its step declares (`round.blocks` in the `joined` message), in the round's order (a new
// block adds its panel here; the pick-and-pass block's is app.js's); a decision answered by a word or an icon
// is drawn in the words its block declares (`round.asks`). Another seat's hand, face-down Throw or secret
// choice is never in the view, so never on the page.

import { el, optionsPanel } from "./cards.js";

function count(n, plural) {
  return `${n} ${n === 1 && plural.endsWith("s") ? plural.slice(0, -1) : plural}`;
}

// -- every round of an edition with public goals: the goals drawn at the game's start ----------------
function goals(view) {
  const said = view.goals.map((goal) => (goal.description ? `${goal.name} (${goal.description})` : goal.name)).join("; ");
  return el("p", { class: "goals", id: "goals" }, `Public goals: ${said}`);
}

// -- the 2010 round --------------------------------------------------------------------------------
function circle(view, deck) {
  return el(
    "section",
    { class: "hand", id: "circle" },
    el("h2", {}, `The circle · deck ${count(view.deck, "cards")}`),
    el("div", { class: "row" }, view.circle.map((c) => deck.card(c, { small: true }))),
  );
}

// A seat's own secret choice; in a drafting round that declares a round-end choice (`round.declared`), its
// declaration until the round's end, and last round's of every seat once the choices turned them up.
function secret(view, deck, mine, round) {
  const declared = round && round.declared;
  if (!declared) {
    return view.secret ? el("p", { class: "own-throw", id: "secret" }, `Your secret choice: ${view.secret}`) : null;
  }
  if (view.secret) {
    return el("p", { class: "own-throw", id: "secret" },
      `Declared in secret: ${view.secret} (${declared.title}, turned up at the round's end)`);
  }
  const last = (view.history || []).at(-1);
  if (!last) return null;
  const said = view.players.map((name) => `${name} ${(last.choices[name] || {})[declared.key] || "none"}`);
  return el("p", { class: "note", id: "declared" }, `Last round's ${declared.title}: ${said.join(", ")}.`);
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
        ? `${view.players[m.seat]} threw${(m.tokens || 1) > 1 ? ` ${m.tokens}` : ""} (pot ${m.pot})`
        : `${view.players[m.seat]} stopped and took ${m.took} from the pot`,
    );
  return said.length ? `${last >= 0 ? "Since your last turn" : "This round"}: ${said.join(", ")}.` : "";
}

// Counted from the top: the stack is revealed top down after the last one left ("1st from the top" hunts second).
function stackPlace(stack, seat) {
  const place = stack.length - stack.indexOf(seat);
  if (place > stack.length) return "on the stack";
  const suffix = place % 100 >= 10 && place % 100 <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix} from the top of the stack`;
}

function bids(view) {
  const last = (view.history || []).at(-1);
  const since = sinceLastTurn(view);
  const seats = view.players.map((name, number) => {
    const stocks = Object.entries(view.stocks[number]).map(([stock, n]) => count(n, stock));
    let state = "";
    if (view.phase === "bid") {
      state = view.still_in.includes(number) ? " · in" : ` · stopped (${stackPlace(view.stack, number)})`;
      if (number === view.turn) state += " · to play";
    }
    return el(
      "section",
      { class: `seat${number === view.seat ? " me" : ""}`, "data-seat": String(number) },
      el("h3", {}, `${name}${number === view.seat ? " (you)" : ""}`, el("span", { class: "count" }, ` · ${stocks.join(", ")}${state}`)),
    );
  });
  return [
    last && last.captured
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
    view.phase === "bid" ? el("p", { class: "note", id: "pot" }, `Pot: ${view.pot}`) : null,
    el("section", { class: "others" }, seats),
  ];
}

function captured(view, deck) {
  return el(
    "section",
    { class: "others", id: "captured" },
    view.players.map((name, number) =>
      el(
        "section",
        { class: `seat${number === view.seat ? " me" : ""}` },
        el("h3", {}, `${name} captured`),
        el("div", { class: "row" }, view.captured[number].map((c) => deck.card(c, { small: true }))),
      ),
    ),
  );
}

// Each block's panel by its name (the pick-and-pass block's, with the hand and the `?` advice, is app.js's).
export const PANELS = { goals, reveal: circle, secret_choice: secret, bidding: bids, claim: captured };

// -- the decisions ---------------------------------------------------------------------------------
// A decision's words, as its block declares them (`joined`'s round.asks).
export function askedOf(round, decision) {
  return (round && round.asks[decision.kind]) || { title: decision.kind, answer: "word", options: {}, points: false };
}

// A decision answered by a word or an icon: a button for each option, in its block's words.
export function wordPanel(decision, asked, answer) {
  const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);
  const label = (option) => capital((asked.options || {})[option] || String(option));
  return optionsPanel({ "data-kind": decision.kind }, capital(asked.title), decision, label, answer);
}
