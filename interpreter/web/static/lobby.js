// The lobby: pick a game (or one of its seasons) and who sits where, create the table, hand out
// the seats' links.
"use strict";
(() => {
  const {el, clear, api} = racecraft;
  const $ = (id) => document.getElementById(id);
  const KINDS = [["human", "a person"], ["open", "a person who joins (open seat)"], ["random", "random bot"],
                 ["greedy", "greedy bot"], ["mcts:200", "search bot"]];
  let games = [];

  function showError(message) {
    $("error").textContent = message || "";
    $("error").hidden = !message;
  }

  function game() {
    return games.find((g) => g.id === $("game").value);
  }

  // how many may play: the game's range, or that of the add-ons chosen that change it (one alone)
  function playerRange() {
    const g = game();
    let range = g.players;
    for (const item of [...g.variants, ...g.modules]) {
      const box = document.querySelector(`#variants-box input[value="${item.id}"], #modules-box input[value="${item.id}"]`);
      if (box && box.checked && item.players) range = {min: Math.min(range.min, item.players.min), max: Math.min(range.max, item.players.max)};
    }
    return range;
  }

  function seatRows() {
    const range = playerRange();
    $("players").min = range.min;
    $("players").max = range.max;
    const n = Math.max(range.min, Math.min(range.max, Number($("players").value) || range.min));
    $("players").value = n;
    const box = $("seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    for (const row of [...box.querySelectorAll("label")]) row.remove();
    for (let i = 0; i < n; i++) {
      const select = el("select", null, null, {"data-seat": String(i + 1)});
      for (const [value, text] of KINDS) select.appendChild(el("option", text, null, {value}));
      select.value = old[i] || (i === 0 ? "human" : "greedy");
      const label = el("label", `seat ${i + 1} `);
      label.appendChild(select);
      box.appendChild(label);
    }
  }

  function checks(container, items, box) {
    clear(container);
    $(box).hidden = !items.length;
    for (const item of items) {
      const label = el("label", null, "check", {title: item.description});
      const box = el("input", null, null, {type: "checkbox", value: item.id});
      // what an add-on requires is chosen with it (and a game's range of players follows)
      box.addEventListener("change", () => {
        if (box.checked) {
          for (const need of item.requires || []) {
            const other = document.querySelector(`#variants-box input[value="${need}"], #modules-box input[value="${need}"]`);
            if (other) other.checked = true;
          }
        }
        seatRows();
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + item.name));
      if (item.requires && item.requires.length) label.appendChild(el("span", " (with " + item.requires.join(", ") + ")", "needs"));
      if (item.description) label.appendChild(el("span", item.description, "hint"));
      container.appendChild(label);
    }
  }

  function chooseSeason() {
    // a season's games have their own tracks; variants and modules chosen here go to every game
    const s = game().seasons.find((x) => x.id === $("season").value);
    $("season-description").textContent = s ? s.description + " Variants and modules chosen here are added to every game." : "";
    $("track-box").hidden = Boolean(s) || !game().tracks.length;
  }

  function chooseGame() {
    const g = game();
    $("game-description").textContent = g.description;
    const season = clear($("season"));
    season.appendChild(el("option", "one game", null, {value: ""}));
    for (const s of g.seasons) season.appendChild(el("option", "a season: " + s.name, null, {value: s.id}));
    $("season-box").hidden = !g.seasons.length;
    checks($("variants"), g.variants, "variants-box");
    checks($("modules"), g.modules, "modules-box");
    const track = clear($("track"));
    track.appendChild(el("option", "the game's own", null, {value: ""}));
    for (const t of g.tracks) track.appendChild(el("option", t, null, {value: t}));
    $("track-box").hidden = !g.tracks.length;
    chooseSeason();
    seatRows();
  }

  async function create(event) {
    event.preventDefault();
    showError("");
    const picked = (id) => [...$(id).querySelectorAll("input:checked")].map((i) => i.value);
    const body = {
      game: $("game").value,
      seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
      variants: picked("variants"), modules: picked("modules"),
      track: $("track").value || null,
      season: $("season").value || null,
    };
    if (body.season) body.track = null;
    if ($("seed").value !== "") {
      body.seed = $("seed").value.trim();   // as typed: a number past 2**53 would be rounded
      body.seed_public = $("seed-public").checked;
    }
    $("create").disabled = true;
    try {
      const table = await api("/api/tables", body);
      const links = clear($("links"));
      for (const seat of table.seats) {
        const item = el("li", `seat ${seat.seat}: `);
        if (seat.url) {
          const url = new URL(seat.url, location.href).href;
          const a = el("a", url, "seat-link", {href: url});
          item.appendChild(a);
        } else if (seat.kind === "open") {
          item.appendChild(el("span", "open: the first person to join takes it"));
        } else {
          item.appendChild(el("span", seat.kind + " (a bot)"));
        }
        links.appendChild(item);
      }
      // the table's other links, each said with what it is for
      for (const [path, text, kind] of [
        [table.join_url, "to join an open seat (send it to anyone; the lobby lists it too): ", "join-link"],
        [table.manage_url, "yours, the creator's: gives a person's seat a new link if theirs is lost (keep it): ",
         "manage-link"],
        [table.watch_url, "to watch (no seat, no hand): ", "watch-link"]]) {
        if (!path) continue;
        const url = new URL(path, location.href).href;
        const item = el("li", text);
        item.appendChild(el("a", url, kind, {href: url}));
        links.appendChild(item);
      }
      const people = table.seats.filter((s) => s.token);
      $("here").href = table.url;
      $("here").textContent = people.length > 1 ? "Play every person's seat here, taking turns at this screen"
                                                : people.length ? "Play your seat here" : "Watch the bots play";
      $("created").hidden = false;
      $("seed-note").hidden = !table.seed_mixed;
      loadTables();
    } catch (e) {
      showError(e.message);
    } finally {
      $("create").disabled = false;
    }
  }

  // the tables a page at a time, newest first: "Older tables" asks for the page after the last shown
  function loadMine() {
    let mine = [];
    try { mine = JSON.parse(localStorage.getItem("racecraft.mine") || "[]"); } catch (e) { mine = []; }
    const list = clear($("mine"));
    $("mine-box").hidden = !mine.length;
    for (const t of mine) {
      const item = el("li");
      item.appendChild(el("a", `${t.game}: ${t.who}`, "mine-link", {href: t.url}));
      item.appendChild(document.createTextNode(` (${t.state})`));
      list.appendChild(item);
    }
  }

  async function loadTables(before) {
    const body = $("tables").querySelector("tbody");
    const {tables, more} = await api("/api/tables?limit=30" + (before ? "&before=" + before : ""));
    if (!before) clear(body);
    $("older").hidden = !more;
    $("older").onclick = () => loadTables(tables[tables.length - 1].created).catch((e) => showError(e.message));
    for (const t of tables) {
      const row = el("tr");
      const extras = [...(t.season ? [seasonName(t)] : []), ...t.modules, ...t.variants, ...(t.track ? [t.track] : [])];
      const game = games.find((x) => x.id === t.game);
      row.appendChild(el("td", (game ? game.name : t.game) + (extras.length ? " (" + extras.join(", ") + ")" : "")));
      // each seat by the name its person gave, else by what sits there
      const names = t.names || [];
      const seatWords = (s) => names[s - 1] || (t.seats[s - 1] === "human" ? "seat " + s : `seat ${s} (${t.seats[s - 1]})`);
      row.appendChild(el("td", t.seats.map((kind, i) => names[i] || kind).join(", ")));
      const champions = t.result && t.result.champions ? ": champion " + t.result.champions.map(seatWords).join(" and ") : "";
      const state = t.state === "archived" ? "archived: untouched for long (a seat's link plays on)" : t.state;
      row.appendChild(el("td", state + champions));
      const cell = el("td");
      // a season's games are replayed one by one, each at its own table
      const ids = t.races ? t.races : [t.id];
      if (t.open_seats) {
        const join = el("button", `Join (${t.open_seats} open seat${t.open_seats > 1 ? "s" : ""})`, "join",
                        {type: "button", "data-table": t.id});
        join.addEventListener("click", () => joinTable(t.id, ""));
        cell.appendChild(join);
      }
      if (t.state === "finished" || t.state === "stopped") {
        ids.forEach((id, i) => {
          const text = t.races ? `replay ${i + 1}` : "replay";
          cell.appendChild(el("a", text, null, {href: `/replay/${encodeURIComponent(id)}`}));
          cell.appendChild(document.createTextNode(" "));
        });
      }
      row.appendChild(cell);
      body.appendChild(row);
    }
  }

  function seasonName(t) {
    const g = games.find((x) => x.id === t.game);
    const s = g && g.seasons.find((x) => x.id === t.season);
    return s ? s.name : t.season;
  }

  async function openRecord() {
    const file = $("record-file").files[0];
    if (!file) return;
    showError("");
    try {
      const text = await file.text();
      const response = await fetch("/api/replays", {method: "POST", body: text});
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || "the record cannot be opened");
      location.href = `/replay?r=${encodeURIComponent(data.id)}`;
    } catch (e) {
      showError(e.message);
    }
  }

  // joining: the first open seat is this person's; their link opens at once
  async function joinTable(id, name) {
    showError("");
    try {
      const seat = await api(`/api/tables/${encodeURIComponent(id)}/join`, name ? {name} : {});
      location.href = seat.url;
    } catch (e) {
      showError(e.message);
      loadTables();
    }
  }

  // the creator's link: each person's seat, and a new link for one whose link was lost
  async function manage(id, creator) {
    $("manage").hidden = false;
    const list = clear($("manage-seats"));
    const {seats} = await api(`/api/tables/${encodeURIComponent(id)}/seats?creator=${encodeURIComponent(creator)}`);
    for (const seat of seats.filter((x) => x.kind === "human")) {
      const item = el("li", `seat ${seat.seat}` + (seat.name ? ` (${seat.name})` : "") + (seat.open ? ": open " : ": "));
      const button = el("button", "Give it a new link", "new-link", {type: "button", "data-seat": String(seat.seat)});
      button.addEventListener("click", async () => {
        showError("");
        try {
          const made = await api(`/api/tables/${encodeURIComponent(id)}/seats/${seat.seat}/link`, {creator});
          const url = new URL(made.url, location.href).href;
          button.replaceWith(el("a", url, "seat-link", {href: url}),
                             el("span", " (the old link no longer plays this seat)"));
        } catch (e) { showError(e.message); }
      });
      item.appendChild(button);
      list.appendChild(item);
    }
  }

  async function start() {
    const asked = new URLSearchParams(location.search);
    if (asked.get("manage")) await manage(asked.get("manage"), location.hash.slice(1)).catch((e) => showError(e.message));
    if (asked.get("join")) {
      $("join").hidden = false;
      $("join-form").addEventListener("submit", (event) => {
        event.preventDefault();
        joinTable(asked.get("join"), $("join-name").value.trim());
      });
    }
    ({games} = await api("/api/games"));
    const select = $("game");
    for (const g of games) select.appendChild(el("option", g.name, null, {value: g.id}));
    select.addEventListener("change", chooseGame);
    $("season").addEventListener("change", chooseSeason);
    $("players").addEventListener("change", seatRows);
    $("new-table").addEventListener("submit", create);
    $("record-file").addEventListener("change", openRecord);
    chooseGame();
    loadMine();
    await loadTables();
  }

  start().catch((e) => showError(e.message));
})();
