// Cards and the score sheet as DOM elements, from the edition's data that `joined` carries.
// Colour only repeats what the text says (the region's name, the icons' names), so nothing needs colour.

const REGION_COLOURS = ["#c8553d", "#e09f3e", "#4f772d", "#2a9d8f", "#3a6ea5", "#7b4b94", "#8d6e63", "#b5838d"];

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.startsWith("--"))
      node.style.setProperty(key, value); // not a style attribute: the page's CSP forbids those
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// A decision answered by one of a few buttons: a panel with its title and a button per option, each
// labelled by label(option) and marked data-option (an empty string for null: "choose nothing").
export function optionsPanel(attrs, title, decision, label, answer) {
  return el(
    "section",
    { class: "panel choice", ...attrs },
    el("h2", {}, title),
    el(
      "div",
      { class: "row" },
      decision.options.map((option) =>
        el(
          "button",
          {
            type: "button",
            class: "option",
            "data-option": option === null ? "" : option,
            onclick: () => answer(decision, option),
          },
          label(option),
        ),
      ),
    ),
  );
}

export class Deck {
  constructor(edition) {
    this.edition = edition;
    this.cards = new Map((edition.cards || []).map((card) => [card.letter, card]));
    // `copies:` (the deck's or a card's own): copy 2 of card A is lettered A.2, the same card otherwise
    for (const card of edition.cards || []) {
      for (let number = 2; number <= (card.copies ?? edition.copies ?? 1); number += 1) {
        this.cards.set(`${card.letter}.${number}`, { ...card, letter: `${card.letter}.${number}` });
      }
    }
    this.regions = (edition.regions || []).map((region) => region.name);
    // an icon's value, for the families that have values ({Leaves: 1, ...}; a list has none)
    this.values = new Map();
    for (const family of Object.values(edition.families || {})) {
      const icons = family && !Array.isArray(family) ? family.icons : null;
      if (icons && !Array.isArray(icons)) for (const [icon, value] of Object.entries(icons)) this.values.set(icon, value);
    }
  }

  // An icon as the card prints it: its name, and its value when its family has values ("Emus 4").
  icon(icon) {
    const value = this.values.get(icon);
    return el("li", {}, icon, value === undefined ? null : el("span", { class: "value" }, ` ${value}`));
  }

  colour(region) {
    const index = this.regions.indexOf(region);
    return REGION_COLOURS[(index < 0 ? 0 : index) % REGION_COLOURS.length];
  }

  // A card face: letter, site, region (name and colour band), number, icons in words.
  card(letter, { onPick = null, small = false } = {}) {
    const card = this.cards.get(letter) || { letter, name: "?", region: "", number: "", icons: [] };
    const attrs = {
      class: `card${small ? " small" : ""}${onPick ? " pickable" : ""}`,
      "data-card": letter,
      "--region": this.colour(card.region),
      title: [`${card.letter} ${card.name}`, card.region, card.number === undefined ? "" : `(${card.number})`]
        .filter(Boolean)
        .join(", "),
    };
    const face = [
      el(
        "div",
        { class: "card-top" },
        el("span", { class: "letter" }, card.letter),
        card.number === undefined ? null : el("span", { class: "number" }, String(card.number)),
      ),
      el("div", { class: "site" }, card.name),
      card.region ? el("div", { class: "region" }, card.region) : null,
      el(
        "ul",
        { class: "icons" },
        (card.icons || []).map((icon) => this.icon(icon)),
      ),
    ];
    if (onPick) {
      return el(
        "button",
        { ...attrs, type: "button", onclick: () => onPick(letter), "aria-label": `pick ${card.letter} ${card.name}` },
        face,
      );
    }
    return el("div", attrs, face);
  }

  back(label = "Throw, face down") {
    return el("div", { class: "card back small", title: label, "aria-label": label }, el("span", {}, "Throw"));
  }
}

// The sheet as on the printed pad: a column per player, each round's categories in rows and their
// total, then the bonuses won that round, then the game-end lines, then the total; the winners'
// columns marked. Before the game is over (over false) the game-end lines are shown as to come.
export function scoreSheet(sheet, edition, { over = true } = {}) {
  // a line with `counts: false` is shown apart: named so, and never mistaken for part of the total
  const uncounted = new Set((edition.categories || []).filter((c) => c.counts === false).map((c) => c.key));
  const titles = new Map(
    [...(edition.categories || []), ...(edition.races || [])].map((c) => [
      c.key,
      (c.title || c.key) + (uncounted.has(c.key) ? " (not counted)" : ""),
    ]),
  );
  const races = new Set((edition.races || []).map((race) => race.key));
  const players = sheet.players || [];
  const rounds = Math.max(0, ...players.map((p) => p.rounds.length));
  const roundKeys = players.length ? Object.keys(players[0].rounds[0] || {}) : [];
  const endKeys = players.length ? Object.keys(players[0].categories).filter((k) => !roundKeys.includes(k)) : [];
  const winners = new Set(sheet.winners || []);
  const head = el(
    "tr",
    {},
    el("th", {}, ""),
    players.map((p) =>
      el("th", { class: winners.has(p.name) ? "winner" : "" }, p.name + (winners.has(p.name) ? " ★" : "")),
    ),
  );
  const rows = [];
  const line = (key, r) =>
    el(
      "tr",
      { class: uncounted.has(key) ? "uncounted" : "" },
      el("th", {}, titles.get(key) || key),
      players.map((p) =>
        el(
          "td",
          { "data-player": p.name, "data-round": String(r + 1), "data-key": key },
          String(p.rounds[r] ? p.rounds[r][key] : ""),
        ),
      ),
    );
  for (let r = 0; r < rounds; r += 1) {
    rows.push(el("tr", { class: "round-head" }, el("th", { colspan: String(players.length + 1) }, `Round ${r + 1}`)));
    for (const key of roundKeys.filter((k) => !races.has(k))) rows.push(line(key, r));
    rows.push(
      el(
        "tr",
        { class: "round-total" },
        el("th", {}, `Round ${r + 1} total`),
        players.map((p) => {
          const points = p.rounds[r] || {};
          const counted = Object.entries(points).filter(([k]) => !races.has(k) && !uncounted.has(k));
          const sum = counted.reduce((total, [, v]) => total + v, 0);
          return el("td", { "data-player": p.name, "data-round": String(r + 1), "data-key": "round_total" }, String(sum));
        }),
      ),
    );
    for (const key of roundKeys.filter((k) => races.has(k))) rows.push(line(key, r));
  }
  if (endKeys.length)
    rows.push(el("tr", { class: "round-head" }, el("th", { colspan: String(players.length + 1) }, "End of the game")));
  for (const key of endKeys) {
    rows.push(
      el(
        "tr",
        { class: [uncounted.has(key) ? "uncounted" : "", over ? "" : "to-come"].filter(Boolean).join(" ") },
        el("th", {}, titles.get(key) || key),
        players.map((p) =>
          over
            ? el("td", { "data-player": p.name, "data-key": key }, String(p.categories[key]))
            : el("td", { "data-player": p.name, "data-key": key, title: "scored at the end of the game" }, "to come"),
        ),
      ),
    );
  }
  rows.push(
    el(
      "tr",
      { class: "total" },
      el("th", {}, "Total"),
      players.map((p) => el("td", { "data-player": p.name, "data-key": "total" }, String(p.total))),
    ),
  );
  for (const stock of Object.keys(players.length ? players[0].stocks || {} : {})) {
    rows.push(
      el(
        "tr",
        {},
        el("th", {}, `${stock} kept`),
        players.map((p) => el("td", { "data-player": p.name, "data-key": `kept.${stock}` }, String(p.stocks[stock]))),
      ),
    );
  }
  return el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows));
}
