// Shared by the lobby, the table and the replay pages. Every text that comes from a game (names,
// labels, the log) is put in the page with textContent, never parsed as HTML.
"use strict";

const racecraft = (() => {
  function el(tag, text, cls, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  async function api(path, body) {
    const init = body === undefined ? {} : {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
    let response;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await fetch(path, init);
        break;
      } catch (e) {
        // the server or the network is down: a question is asked again a few times; an action is
        // not (it may have been taken), and the person is told so in words
        if (body !== undefined || attempt >= 3) {
          const error = new Error(body === undefined
            ? "the server cannot be reached: is it still running? (reload the page to ask again)"
            : "the server cannot be reached: what you did may not have been taken; the table shows " +
              "what the server has once it answers again");
          error.status = 0;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
    let data = null;
    try { data = await response.json(); } catch (e) { data = {error: "the server did not answer"}; }
    if (!response.ok) {
      const error = new Error(data && data.error ? data.error : `error ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  // A pile of cards: each card once, with how many alike (sight.Pile: label, count, cards, text).
  function pile(p, cls) {
    const box = el("div", null, "pile " + (cls || ""));
    box.appendChild(el("div", p.label, "pile-label"));
    if (!p.cards || p.cards.length === 0) {
      box.appendChild(el("div", p.text, "pile-text"));
      return box;
    }
    const row = el("div", null, "cards");
    for (const [name, n] of p.cards) {
      const card = el("div", null, name.startsWith("(") ? "card hidden-card" : "card");
      card.appendChild(el("span", name, "card-name"));
      if (n > 1) card.appendChild(el("span", "×" + n, "card-count"));
      row.appendChild(card);
    }
    box.appendChild(row);
    return box;
  }

  // What a seat sees, besides the board: the seat's own piles, each seat's facts, the game's piles.
  function sight(container, s, seats) {
    clear(container);
    if (s.mine.length) {
      const mine = el("section", null, "mine");
      mine.appendChild(el("h2", "Your cards"));
      for (const p of s.mine) mine.appendChild(pile(p, "own"));
      container.appendChild(mine);
    }
    const list = el("section", null, "seats");
    list.appendChild(el("h2", "Seats"));
    for (const seat of s.seats) {
      const kind = seats && seats[seat.seat] ? seats[seat.seat].kind : "";
      const row = el("div", null, seat.you ? "seat you" : "seat");
      const name = seats && seats[seat.seat] ? seats[seat.seat].name : null;
      const who = (name ? name + " (seat " + (seat.seat + 1) + ")" : "seat " + (seat.seat + 1)) + (seat.you ? " (you)" : "") +
                  (kind && kind !== "human" ? " · " + kind : "");
      row.appendChild(el("div", who, "seat-name"));
      for (const piece of seat.pieces) {
        row.appendChild(el("div", piece.name + (piece.facts.length ? ": " + piece.facts.join(", ") : ""), "seat-pieces"));
        for (const p of piece.piles) row.appendChild(el("div", piece.name + "'s " + p.label + ": " + p.text, "seat-pile"));
      }
      if (seat.facts.length) row.appendChild(el("div", seat.facts.join(" · "), "seat-facts"));
      for (const p of seat.piles) row.appendChild(el("div", p.label + ": " + p.text, "seat-pile"));
      list.appendChild(row);
    }
    container.appendChild(list);
    if (s.table.length) {
      const table = el("section", null, "game-piles");
      table.appendChild(el("h2", "On the table"));
      for (const p of s.table) table.appendChild(pile(p, "public"));
      container.appendChild(table);
    }
  }

  function result(container, res) {
    clear(container);
    if (!res) return;
    container.appendChild(el("h2", "Result"));
    const list = el("ol", null, "placings");
    for (const p of res.placings) {
      const who = p.seat ? (p.name ? p.name + " (seat " + p.seat + ")" : "seat " + p.seat) : p.piece + " (driven by the game)";
      // (a game's words for a seat, `result.says`, may be empty: then nothing after the name)
      const said = p.score === "" ? "" : ": " + p.score;
      list.appendChild(el("li", who + said + (p.winner ? " — winner" : ""), p.winner ? "winner" : ""));
    }
    container.appendChild(list);
    const seed = res.seed_text ?? res.seed;   // (the digits: a number past 2**53 reads rounded)
    container.appendChild(el("p", res.rounds + " rounds" + (seed !== undefined && seed !== null ? ", seed " + seed : "")));
  }

  // A season: where it stands (its standings, in the columns `racecraft championship` prints) and
  // each game's end; `link(race)` gives the address of a finished game's replay.
  function season(container, s, link) {
    clear(container);
    if (!s) return;
    container.appendChild(el("h2", s.name + " · " + s.title));
    if (s.said) container.appendChild(el("p", s.said, "champion"));
    if (s.standings.rows.length) container.appendChild(standings(s.standings));
    const list = el("ul", null, "results");
    for (const r of s.results) {
      const item = el("li", r.said + " ");
      if (link) item.appendChild(el("a", "replay", null, {href: link(r)}));
      list.appendChild(item);
    }
    container.appendChild(list);
  }

  function standings(st) {
    const table = el("table", null, "standings");
    const head = el("tr");
    for (const h of st.head) head.appendChild(el("th", h));
    table.appendChild(head);
    for (const row of st.rows) {
      const tr = el("tr");
      for (const cell of row) tr.appendChild(el("td", cell));
      table.appendChild(tr);
    }
    return table;
  }

  function log(container, lines) {
    clear(container);
    for (const line of lines) {
      container.appendChild(el("div", line.trim(), line.startsWith(" ") ? "log-line" : "log-heading"));
    }
    container.scrollTop = container.scrollHeight;
  }

  return {el, clear, api, pile, sight, result, season, standings, log};
})();
