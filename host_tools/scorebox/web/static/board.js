// The range's board (web/pages/board.py): asks the desk for the event's state every few
// seconds and redraws it; while the desk does not answer it keeps asking and says when the
// board last updated.
"use strict";
(function () {
  const body = document.body;
  const every = Number(body.dataset.refresh) * 1000;
  const status = document.getElementById("status");
  let last = null;

  function cells(row, texts) {
    row.replaceChildren(...texts.map((t) => { const td = document.createElement("td"); td.textContent = t; return td; }));
    return row;
  }

  function draw(now) {
    document.getElementById("event").textContent = now.event;
    document.getElementById("round").textContent = now.game + " \u00b7 round " + now.round;
    const pairings = now.pairings.map((p) => cells(document.createElement("tr"), [
      p.target ? "T" + p.target : "-",
      p.b ? p.a + " v " + p.b : p.a + ": a bye",
      p.b ? p.result + (p.points ? " " + p.points[0] + "-" + p.points[1] : "") : "",
    ]));
    document.querySelector("#pairings tbody").replaceChildren(...pairings);
    const rows = (now.standings || []).map((r) => cells(document.createElement("tr"), r.map(String)));
    document.querySelector("#standings tbody").replaceChildren(...rows);
    document.getElementById("champion").textContent = now.champion ? "Won by " + now.champion : "";
  }

  async function ask() {
    try {
      const r = await fetch(body.dataset.now, { cache: "no-store" });
      if (!r.ok) throw new Error("HTTP " + r.status);
      const now = await r.json();
      draw(now);
      last = now.updated;
      status.textContent = "updated " + last;
      status.classList.remove("stale");
    } catch (e) {
      status.textContent = "the desk is not answering" + (last ? " (last updated " + last + ")" : "") + ": trying again";
      status.classList.add("stale");
    }
    setTimeout(ask, every);
  }
  setTimeout(ask, every);
})();
