// A game stepped through: a table (finished: as any seat; running: as the seat of the link's
// token) or a record file opened in the lobby (`?r=ID`). The slider and the arrow keys move.
"use strict";
(() => {
  const {el, clear, api, sight, result, log: showLog} = racecraft;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const record = params.get("r");
  const tableId = record ? null : decodeURIComponent(location.pathname.split("/").pop());
  const token = location.hash.slice(1).split(",").filter(Boolean)[0] || null;
  const base = record ? `/api/replays/${encodeURIComponent(record)}` : `/api/tables/${encodeURIComponent(tableId)}`;
  let at = Number(params.get("at") || 0);
  let asked = 0;

  function query(n) {
    const q = new URLSearchParams({at: String(n)});
    if (token) q.set("token", token);
    if ($("seat").value) q.set("seat", $("seat").value);
    return q.toString();
  }

  function showError(message) {
    $("error").textContent = message || "";
    $("error").hidden = !message;
  }

  async function show(n) {
    const mine = ++asked;
    let step;
    try {
      step = await api(`${base}${record ? "" : "/replay"}?${query(n)}`);
    } catch (e) {
      if (e.status === 403 && !token && !record) {
        // a table still playing is replayed by its seats only: anybody may once it is over
        showError("This game is still being played: its replay opens here when it is over.");
        setTimeout(() => show(n), 3000);
      } else {
        showError(e.message);
      }
      return;
    }
    if (mine !== asked) return;   // a later step was asked meanwhile
    showError("");
    at = step.at;
    $("slider").max = String(step.total);
    $("slider").value = String(step.at);
    $("title").textContent = step.game;
    $("where").textContent = `${step.at} of ${step.total} decisions`;
    $("facts").textContent = [...step.sight.facts, step.seat ? `as seat ${step.seat}` : "as nobody"].join(" · ");
    const seats = $("seat");
    if (!seats.options.length && (record || !token)) {
      seats.appendChild(el("option", "the seat deciding", null, {value: ""}));
      for (const s of step.seats) seats.appendChild(el("option", `seat ${s.seat} (${s.kind})`, null, {value: String(s.seat)}));
      $("seat-box").hidden = false;
    }
    $("picture").src = `${base}/replay.svg?${query(step.at)}`;
    const d = step.decision;
    $("decision").textContent = d ? `Decision ${d.n}: seat ${d.seat}` + (d.prompt ? `: ${d.prompt}` : "") +
                                    (d.secret ? " (in secret)" : "") : "";
    $("chose").textContent = d ? (d.chose ? `chose: ${d.chose}` : "(what was chosen is that seat's)") : "";
    result($("result"), step.result);
    sight($("sight"), step.sight, step.seats.reduce((m, s) => { m[s.seat - 1] = s; return m; }, {}));
    showLog($("log"), step.log);
    const q = new URLSearchParams(location.search);
    q.set("at", String(step.at));
    history.replaceState(null, "", `${location.pathname}?${q.toString()}${location.hash}`);
  }

  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("back").addEventListener("click", () => show(Math.max(0, at - 1)));
  $("forward").addEventListener("click", () => show(at + 1));
  $("seat").addEventListener("change", () => show(at));
  document.addEventListener("keydown", (event) => {
    if (event.target && (event.target.tagName === "SELECT" || event.target === $("slider"))) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); show(Math.max(0, at - 1)); }
    else if (event.key === "ArrowRight") { event.preventDefault(); show(at + 1); }
    else if (event.key === "Home") { event.preventDefault(); show(0); }
    else if (event.key === "End") { event.preventDefault(); show(Number($("slider").max)); }
  });
  show(at);
})();
