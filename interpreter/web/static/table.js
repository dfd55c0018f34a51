// The table as a seat sees it. The link's fragment holds the seat's token (several, comma
// separated, for people taking turns at one screen); the fragment never reaches the server's logs.
// At a season's table the games are played in turn: when one ends, its result and the standings
// are shown until the player goes on.
"use strict";
(() => {
  const {el, clear, api, sight, result, season: showSeason, standings, log: showLog} = racecraft;
  const tableId = decodeURIComponent(location.pathname.split("/").pop());
  const tokens = location.hash.slice(1).split(",").filter(Boolean);

  // "my tables": the seats this browser opened, for the lobby (the link is the seat's key: it stays
  // in this browser's storage, never sent anywhere)
  function remember(told, who) {
    try {
      const mine = JSON.parse(localStorage.getItem("racecraft.mine") || "[]").filter((t) => t.url !== location.href);
      mine.unshift({url: location.href, game: told.game, who: tokens.length > 1 ? "every person's seat" : who,
                    state: told.state, at: Date.now()});
      localStorage.setItem("racecraft.mine", JSON.stringify(mine.slice(0, 20)));
    } catch (e) { /* no storage: nothing remembered */ }
  }
  const $ = (id) => document.getElementById(id);

  // the turn notice, for a person who looks elsewhere while the others play: a short sound and,
  // while this tab is hidden and the browser allows it, a notification (asked for when ticked)
  let noticeOn = false;
  try { noticeOn = localStorage.getItem("racecraft.notice") === "on"; } catch (e) { /* no storage */ }
  let wasMine = null;
  function noticeTurn(mine, told) {
    const now = Boolean(mine);
    const began = now && wasMine === false;   // not on opening the page: only a turn that comes
    wasMine = now;
    if (!began || !noticeOn) return;
    document.body.dataset.notices = String(Number(document.body.dataset.notices || 0) + 1);
    try {
      const Audio = window.AudioContext || window.webkitAudioContext;
      if (Audio) {
        const ctx = new Audio();
        const tone = ctx.createOscillator();
        const gain = ctx.createGain();
        tone.frequency.value = 660;
        gain.gain.value = 0.08;
        tone.connect(gain).connect(ctx.destination);
        tone.start();
        tone.stop(ctx.currentTime + 0.18);
        tone.onended = () => ctx.close();
      }
    } catch (e) { /* no sound here: the title's dot still says it */ }
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(`Your turn: ${told.game}`, {body: told.prompt || "", tag: "racecraft-turn"}); }
      catch (e) { /* a browser that shows notifications only from a service worker */ }
    }
  }
  function setNotice(on) {
    noticeOn = on;
    try { localStorage.setItem("racecraft.notice", on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
    if (on && "Notification" in window && Notification.permission === "default") {
      Notification.requestPermission().catch(() => {});
    }
  }

  const state = {told: {}, log: [], shown: null, passedTo: null, busy: false, typed: "", viewKey: null,
                 gamesOver: null};

  function mover() {
    // the token of ours whose seat decides now, else the first
    for (const t of tokens) {
      const told = state.told[t];
      if (told && told.to_move.includes(told.seat) && told.options.length) return t;
    }
    return tokens[0];
  }

  function newer(token, told) {
    // answers may cross (a decision's answer, an event): the later one stays
    const now = state.told[token];
    return !now || told.as_of >= now.as_of;
  }

  function takeLog(told) {
    if (told.log_start > state.log.length) return false;   // lines missed: ask again from the start
    state.log = state.log.slice(0, told.log_start).concat(told.log);
    return true;
  }

  async function fetchAll(since) {
    const fresh = {};
    for (const t of tokens) {
      fresh[t] = await api(`/api/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(t)}&since=${since}`);
    }
    // the log is the same for every seat: taken once, from the last answer
    const last = fresh[tokens[tokens.length - 1]];
    if (!newer(tokens[tokens.length - 1], last)) return render();
    if (!takeLog(last)) return fetchAll(0);
    state.told = fresh;
    render();
  }

  // one refresh at a time: a change that comes meanwhile asks for one more after it
  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    $("turn").setAttribute("aria-busy", "true");
    refreshing = (async () => {
      do { again = false; await fetchAll(state.log.length); } while (again);
    })();
    try { await refreshing; } catch (e) { showError(e.message); } finally {
      refreshing = null;
      $("turn").setAttribute("aria-busy", state.busy ? "true" : "false");
    }
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function between(s) {
    // a game of the season ended since the last look (not when the page opens): its result and the
    // standings, the champion at the end
    const over = s ? s.results.length : 0;
    if (state.gamesOver !== null && over > state.gamesOver) {
      const box = clear($("between-text"));
      box.appendChild(el("h2", s.results[over - 1].said));
      box.appendChild(el("p", "standings:"));
      box.appendChild(standings(s.standings));
      if (s.said) box.appendChild(el("p", s.said, "champion"));
      $("between-on").textContent = s.said ? "See the table (Enter)" : `On to ${s.title} (Enter)`;
      $("between").hidden = false;
    }
    state.gamesOver = over;
  }

  function render() {
    const token = mover();
    const told = state.told[token];
    if (!told) return;
    const s = told.season;
    between(s);
    const several = tokens.length > 1;
    // people at one screen: the last one's cards are covered until the next says they are ready
    if (several && told.options.length && state.passedTo !== null && state.passedTo !== told.seat) {
      $("pass-text").textContent = `Pass to seat ${told.seat}: press Ready when seat ${told.seat} is at the screen.`;
      $("pass").hidden = false;
      $("pass").dataset.seat = told.seat;
      document.body.classList.add("covered");
      state.optionsKey = null;
      clear($("options"));
      return;
    }
    $("pass").hidden = true;
    document.body.classList.remove("covered");
    if (told.options.length) state.passedTo = told.seat;
    state.shown = token;
    // the spectator link's token has no seat: it is told what the game shows everybody
    const me = told.seat ? told.seats[told.seat - 1] || {} : null;
    const who = !me ? "watching" : me.name ? `${me.name} (seat ${told.seat})` : `seat ${told.seat}`;
    // a person names their seat once (every seat is told it); people at one screen each do
    $("name-form").hidden = !me || Boolean(me.name) || me.kind !== "human" || told.finished;
    if (state.remembered !== who + told.state) { state.remembered = who + told.state; remember(told, who); }
    document.title = (told.options.length && !told.waiting ? "● " : "") + `${told.game} · ${who}`;
    // (people at one screen take turns at it: no notice)
    noticeTurn(!several && me && told.options.length && !told.waiting, told);
    $("notice-label").hidden = several || !me || me.kind !== "human" || told.finished;
    $("title").textContent = told.game + (s ? " · " + s.name : "");
    $("facts").textContent = [...(s ? [s.title] : []), ...told.sight.facts, me ? `you are ${who}` : "watching: what the game shows everybody",
                              ...(told.seed !== null && told.seed !== undefined ? [`seed ${told.seed_text ?? told.seed}`] : [])].join(" · ");
    const key = JSON.stringify([told.view, told.seat]);
    // the pieces' places are read from the picture only while an option is made for a piece
    const wantSpots = !told.waiting && told.options.some((o) => spotOf(o));
    if (key !== state.viewKey) {
      state.viewKey = key;
      state.pictureCount = (state.pictureCount || 0) + 1;
      state.pictureUrl = `/api/tables/${encodeURIComponent(tableId)}/picture.svg?token=${encodeURIComponent(token)}&n=${state.pictureCount}`;
      state.spots = {};
      if (wantSpots) drawPicture(state.pictureUrl, state.pictureCount);
      else $("picture").src = state.pictureUrl;
    } else if (wantSpots && state.spotsFor !== state.pictureCount) {
      drawPicture(state.pictureUrl, state.pictureCount);
    }
    showPicks(told);
    let status = "";
    if (told.state === "finished") status = (s ? "The season is over. " + s.said : "The game is over.") + (told.problem ? " " + told.problem[0].toUpperCase() + told.problem.slice(1) + "." : "");
    else if (told.state === "stopped") status = (s ? "The season stopped: " : "The game stopped: ") + (told.problem || "");
    else if (told.waiting) status = told.waiting[0].toUpperCase() + told.waiting.slice(1) + (told.secret ? " (deciding in secret)" : "") + "…";
    else if (told.options.length) status = `${who[0].toUpperCase() + who.slice(1)}: your decision` + (told.secret ? " (in secret: the others see it when all have decided)" : "");
    $("status").textContent = status;
    $("prompt").textContent = told.prompt || "";
    // the buttons are made again only when the options change (a button under the pointer stays)
    const optionsKey = JSON.stringify([token, told.decision, told.options]);
    if (optionsKey !== state.optionsKey) {
      state.optionsKey = optionsKey;
      const options = clear($("options"));
      for (const o of told.options) {
        const button = el("button", null, "option", {type: "button", "data-key": String(o.key)});
        button.appendChild(el("span", String(o.key), "key"));
        button.appendChild(el("span", o.label, "label"));
        if (o.preview) button.appendChild(el("span", "→ " + o.preview, "preview"));
        button.addEventListener("click", () => decide(o.key));
        options.appendChild(button);
      }
    }
    offerable(!state.busy);
    $("turn").setAttribute("aria-busy", state.busy || refreshing ? "true" : "false");
    $("undo").hidden = !told.can_undo;
    // (at a season's table, the game under way is a table of its own)
    const gameId = encodeURIComponent(s ? s.table : tableId);
    $("replay-link").href = `/replay/${gameId}#${encodeURIComponent(token)}`;
    $("replay-link").hidden = !me && !told.finished;   // (a replay while the game runs is a seat's)
    $("record-link").href = `/api/tables/${gameId}/record?token=${encodeURIComponent(token)}`;
    $("season-record").hidden = !(s && told.state !== "playing");
    $("season-record").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
    const seasonKey = JSON.stringify([s, token]);
    if (seasonKey !== state.seasonKey) {
      state.seasonKey = seasonKey;
      $("season").hidden = !s;
      showSeason($("season"), s, (r) => `/replay/${encodeURIComponent(r.table)}#${encodeURIComponent(token)}`);
    }
    const sightKey = JSON.stringify([told.sight, told.result, told.seats]);
    if (sightKey !== state.sightKey) {
      state.sightKey = sightKey;
      result($("result"), told.result);
      sight($("sight"), told.sight, told.seats.reduce((m, s) => { m[s.seat - 1] = s; return m; }, {}));
    }
    const logKey = state.log.length + ":" + (state.log[state.log.length - 1] || "");
    if (logKey !== state.logShown) {
      state.logShown = logKey;
      showLog($("log"), state.log);
    }
    $("typed").hidden = !state.typed;
    $("typed").textContent = state.typed ? "typed: " + state.typed + " (Enter)" : "";
  }

  // Where each piece is in the picture (read from the same drawing, never put into the page): an
  // option made for a piece gets a ring on it, clicked as the option is.
  async function drawPicture(url, n) {
    state.spotsFor = n;
    let text;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(String(response.status));
      text = await response.text();
    } catch (e) {
      if (n === state.pictureCount) { state.spots = {}; $("picture").src = url; }   // (drawn without rings)
      return;
    }
    if (n !== state.pictureCount) return;   // a newer picture is on its way
    $("picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    try {
      const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
      const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
      if (box.length !== 4) throw new Error("no viewBox");
      // each piece's and each place's centre and size, from the shapes the picture marks
      const boxes = {};
      const mark = (key, b) => {
        const had = boxes[key];
        boxes[key] = had ? [Math.min(had[0], b[0]), Math.min(had[1], b[1]), Math.max(had[2], b[2]), Math.max(had[3], b[3])] : b;
      };
      for (const e of svg.querySelectorAll("[data-piece]")) mark("piece:" + e.getAttribute("data-piece"), shapeBox(e));
      for (const e of svg.querySelectorAll("[data-place]")) mark("place:" + e.getAttribute("data-place"), shapeBox(e));
      const spots = {};
      for (const [key, b] of Object.entries(boxes)) {
        if (b.some((v) => !Number.isFinite(v))) continue;
        const r = Math.max(Math.min(b[2] - b[0], b[3] - b[1]) / 2, 4);
        spots[key] = {x: ((b[0] + b[2]) / 2 - box[0]) / box[2], y: ((b[1] + b[3]) / 2 - box[1]) / box[3], r: r / box[2]};
      }
      state.spots = spots;
      state.picksKey = null;
      showPicks(state.told[state.shown]);
    } catch (e) { state.spots = {}; }   // (no rings: the options' list still takes every choice)
  }

  // the bounding box [x0, y0, x1, y1] of a circle, a rectangle or a polygon of the picture
  function shapeBox(e) {
    const n = (name) => Number(e.getAttribute(name));
    if (e.tagName === "circle") return [n("cx") - n("r"), n("cy") - n("r"), n("cx") + n("r"), n("cy") + n("r")];
    if (e.tagName === "rect") return [n("x"), n("y"), n("x") + n("width"), n("y") + n("height")];
    const xy = (e.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
    const xs = xy.filter((_, i) => i % 2 === 0), ys = xy.filter((_, i) => i % 2 === 1);
    return xs.length ? [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] : [NaN, NaN, NaN, NaN];
  }

  // where an option is clicked on the picture: the piece or the place it is made for
  function spotOf(o) {
    if (o.piece) return "piece:" + o.piece;
    if (o.place) return `place:${o.place.board}:${o.place.place}`;
    return null;
  }

  function showPicks(told) {
    const options = told && !told.waiting ? told.options.filter((o) => spotOf(o) && state.spots && state.spots[spotOf(o)]) : [];
    const key = JSON.stringify([options.map((o) => [o.key, spotOf(o)]), state.pictureCount, Boolean(state.spots)]);
    if (key === state.picksKey) return;
    state.picksKey = key;
    const picks = clear($("picks"));
    const named = {};
    for (const o of options) named[spotOf(o)] = (named[spotOf(o)] || 0) + 1;
    for (const o of options) {
      if (named[spotOf(o)] > 1) continue;   // a piece or place several options name: the list says which
      const at = state.spots[spotOf(o)];
      // a ring around a piece; inside a place's shape (a square, a cell, a space)
      const size = Math.max((o.piece ? 2.6 : 1.5) * at.r * 100, 2.2);
      const button = el("button", null, "pick", {type: "button", "data-key": o.key, "aria-label": `${o.key}) ${o.label}`,
                                                 title: o.label});
      if (o.piece) button.setAttribute("data-piece", o.piece);
      else button.setAttribute("data-place", `${o.place.board}:${o.place.place}`);
      button.style.left = `${at.x * 100}%`;
      button.style.top = `${at.y * 100}%`;
      button.style.width = `${size}%`;
      button.style.aspectRatio = "1";
      button.disabled = state.busy;   // (drawn while a decision is on its way: clickable after it)
      button.addEventListener("click", () => decide(o.key));
      picks.appendChild(button);
    }
  }

  // the options' buttons and the rings on the picture, clickable or not
  function offerable(yes) {
    for (const button of [...$("options").querySelectorAll("button"), ...$("picks").querySelectorAll("button")]) {
      button.disabled = !yes;
    }
  }

  async function decide(key) {
    const token = state.shown;
    const told = state.told[token];
    if (!told || state.busy) return;
    state.busy = true;
    state.typed = "";
    showError("");
    // the options disabled at once: a click while this decision is on its way (or while the page
    // asks the server again after it failed) is not silently dropped, it waits
    offerable(false);
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    try {
      const after = await api(`/api/tables/${encodeURIComponent(tableId)}/decide`,
                              {token, option: key, decision: told.decision});
      if (tokens.length > 1) await refresh();
      else if (newer(token, after)) {
        if (takeLog(after)) state.told[token] = after;
        else await refresh();
      }
    } catch (e) {
      showError(e.message);
      await refresh();
    } finally {
      state.busy = false;
      render();
    }
  }

  async function undo() {
    const token = state.shown;
    if (state.busy) return;
    state.busy = true;
    showError("");
    try {
      const after = await api(`/api/tables/${encodeURIComponent(tableId)}/undo`, {token});
      if (newer(token, after) && takeLog(after)) state.told[token] = after;
    } catch (e) {
      showError(e.message);
    } finally {
      state.busy = false;
      render();
    }
  }

  function listen() {
    const source = new EventSource(`/api/tables/${encodeURIComponent(tableId)}/events?token=${encodeURIComponent(tokens[0])}&since=${state.log.length}`);
    source.addEventListener("table", (event) => {
      const told = JSON.parse(event.data);
      if (tokens.length > 1 || refreshing) {
        refresh();
        return;
      }
      if (!newer(tokens[0], told)) return;
      if (!takeLog(told)) { refresh(); return; }
      state.told[tokens[0]] = told;
      render();
    });
  }

  async function giveName(event) {
    event.preventDefault();
    const token = state.shown;
    const name = $("name").value;
    if (!token || !name.trim()) return;
    try {
      const after = await api(`/api/tables/${encodeURIComponent(tableId)}/name`, {token, name});
      if (newer(token, after) && takeLog(after)) state.told[token] = after;
      $("name").value = "";
      showError("");
    } catch (e) {
      showError(e.message);
    }
    render();
  }
  $("name-form").addEventListener("submit", giveName);

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target && event.target.tagName === "INPUT") return;   // (typing a name)
    if (!$("between").hidden) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); goOn(); }
      return;
    }
    if (!$("pass").hidden) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); ready(); }
      return;
    }
    const told = state.told[state.shown];
    if (!told) return;
    const keys = told.options.map((o) => String(o.key));
    // an option's key is a letter (`u` is none: it takes back a decision), two for many options
    if (/^[a-tv-z]$/i.test(event.key) && keys.length) {
      state.typed += event.key.toLowerCase();
      // taken at once when no other key starts with what was typed
      if (keys.includes(state.typed) && !keys.some((k) => k !== state.typed && k.startsWith(state.typed))) {
        decide(state.typed);
        return;
      }
      if (!keys.some((k) => k.startsWith(state.typed))) {
        showError(`${state.typed} is not one of the options`);
        state.typed = "";
      }
      render();
    } else if (event.key === "Enter" && state.typed) {
      if (keys.includes(state.typed)) decide(state.typed);
      else { showError(`${state.typed} is not one of the options`); state.typed = ""; render(); }
    } else if (event.key === "Backspace" && state.typed) {
      state.typed = state.typed.slice(0, -1);
      render();
    } else if (event.key === "Escape") {
      state.typed = "";
      showError("");
      render();
    } else if ((event.key === "u" || event.key === "U") && told.can_undo) {
      undo();
    }
  });

  function ready() {
    state.passedTo = Number($("pass").dataset.seat);
    render();
  }

  function goOn() {
    $("between").hidden = true;
  }

  $("pass-ready").addEventListener("click", ready);
  $("between-on").addEventListener("click", goOn);
  $("undo").addEventListener("click", undo);
  $("notice").checked = noticeOn;
  $("notice").addEventListener("change", () => setNotice($("notice").checked));

  if (!tokens.length) {
    showError("This link holds no seat: open the link the lobby gave for your seat.");
    return;
  }
  fetchAll(0).then(listen).catch((e) => showError(e.message));
  window.addEventListener("hashchange", () => location.reload());
})();
