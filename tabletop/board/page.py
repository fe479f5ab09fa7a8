"""The board's page: one self-contained HTML document (no fonts, scripts or images from anywhere).

Large type, high contrast (white and yellow on black, WCAG AAA), sized from the viewport so it
reads across a table on a phone, a tablet or a TV; it wraps rather than overflows. It listens to
``events`` (server-sent events) and redraws with textContent only (names are never parsed as HTML).
"""

from __future__ import annotations

__all__ = ["PAGE"]

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>tabletop: Go Fish</title>
<style>
  :root { --bg: #000; --fg: #fff; --accent: #ffd60a; --muted: #d0d0d0; --tile: #fff; --tile-fg: #000; }
  * { box-sizing: border-box; }
  html, body { margin: 0; background: var(--bg); color: var(--fg); }
  body { font-family: "DejaVu Sans", "Liberation Sans", Verdana, Arial, sans-serif; line-height: 1.2;
         padding: clamp(0.5rem, 2vw, 2rem); min-height: 100vh; overflow-wrap: break-word; }
  header { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between;
           gap: 0.5rem 2rem; margin-bottom: clamp(0.5rem, 2vw, 1.5rem); }
  #title { font-size: clamp(2.2rem, 7vw, 8rem); font-weight: 800; margin: 0; color: var(--accent); }
  #stock { font-size: clamp(1.5rem, 3.5vw, 4.5rem); font-weight: 700; }
  #last { font-size: clamp(1.3rem, 3vw, 3.5rem); margin: 0 0 clamp(0.75rem, 2vw, 2rem);
          padding: 0.4em 0.6em; border: 0.12em solid var(--fg); border-radius: 0.4em; min-height: 2.1em; }
  #players { display: grid; gap: clamp(0.5rem, 1.5vw, 1.5rem);
             grid-template-columns: repeat(auto-fit, minmax(min(100%, max(20rem, calc(100% / 3 - 2rem))), 1fr)); }
  .player { border: 0.25rem solid var(--muted); border-radius: 1rem; padding: clamp(0.6rem, 1.5vw, 1.4rem);
            min-width: 0; container-type: inline-size; }
  .player.current { border-color: var(--accent); border-width: 0.5rem; }
  .player.out { opacity: 1; border-style: dashed; }
  .name { font-size: clamp(1.6rem, 13cqi, 6rem); font-weight: 800; margin: 0; }
  .current .name { color: var(--accent); }
  .facts { font-size: clamp(1.3rem, 7cqi, 3.2rem); margin: 0.2em 0 0.4em; color: var(--fg); }
  .facts span { white-space: nowrap; }
  .books { display: flex; flex-wrap: wrap; gap: 0.4rem; }
  .rank { background: var(--tile); color: var(--tile-fg); font-weight: 800; border-radius: 0.3em;
          font-size: clamp(1.8rem, 11cqi, 5rem); min-width: 1.6em; padding: 0.05em 0.2em; text-align: center; }
  #winner { display: none; position: fixed; inset: 0; background: var(--bg); padding: 5vw;
            flex-direction: column; justify-content: center; align-items: center; text-align: center; overflow: auto; }
  body.over #winner { display: flex; }
  #winner-title { font-size: clamp(3rem, 11vw, 10rem); font-weight: 900; color: var(--accent); margin: 0 0 0.3em; }
  #winner-scores { font-size: clamp(1.5rem, 4vw, 4rem); margin: 0; padding: 0; list-style: none; }
  #status { position: fixed; right: 0.5rem; bottom: 0.3rem; font-size: 1rem; color: var(--muted); }
</style>
</head>
<body>
<header><h1 id="title">Go Fish</h1><div id="stock" aria-live="polite"></div></header>
<p id="last" aria-live="polite"></p>
<main id="players"></main>
<section id="winner" aria-live="assertive"><h2 id="winner-title"></h2><ul id="winner-scores"></ul></section>
<div id="status">connecting</div>
<script>
"use strict";
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }
function render(d) {
  document.body.dataset.version = d.version;
  document.body.classList.toggle("over", d.over);
  document.getElementById("title").textContent = d.title;
  document.getElementById("stock").textContent = "Stock: " + d.stock;
  document.getElementById("last").textContent = d.last;
  const kind = d.kind === "pairs" ? ["pair", "pairs"] : ["book", "books"];
  const players = document.getElementById("players");
  players.replaceChildren(...d.players.map(p => {
    const card = el("section", "player" + (p.current ? " current" : "") + (p.out ? " out" : ""));
    card.dataset.player = p.name;
    card.append(el("h2", "name", p.name));
    const facts = el("p", "facts");
    const parts = [plural(p.hand, "card", "cards"), plural(p.count, kind[0], kind[1])].concat(p.out ? ["sits out"] : []);
    parts.forEach((part, i) => { if (i) facts.append(" \\u00b7 "); facts.append(el("span", "", part)); });
    card.append(facts);
    const books = el("div", "books");
    p.books.forEach(r => books.append(el("span", "rank", r)));
    card.append(books);
    return card;
  }));
  document.getElementById("winner-title").textContent = d.title;
  document.getElementById("winner-scores").replaceChildren(...d.players.map(p =>
    el("li", p.winner ? "winner" : "", p.name + ": " + plural(p.count, kind[0], kind[1]))));
}
function connect() {
  const source = new EventSource("events");
  source.onopen = () => { document.getElementById("status").textContent = ""; };
  source.onmessage = event => render(JSON.parse(event.data));
  source.onerror = () => { document.getElementById("status").textContent = "reconnecting"; };
}
connect();
</script>
</body>
</html>
"""
