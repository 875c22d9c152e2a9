// taskbench's tournament (index.html): draws one session's overview from the data files
// beside the page (data/sessions.js, then data/session-N.js, each loaded as a script so
// that the page works from file://), with the session, measure and filters in the URL.
"use strict";
const taskbench = (() => {
  const state = { sessions: null, session: null, loading: null };
  const controls = ["machine", "session", "measure", "language", "family", "scenario", "size"];
  const $ = (id) => document.getElementById(id);
  const params = () => new URLSearchParams(location.search);

  // The view the URL asks for. A missing session is the newest run of the machine asked
  // for (`machine=m2`), else the newest run of all; a bisect's steps only where nothing else.
  function wanted() {
    const p = params();
    const sessions = state.sessions.sessions;
    let id = Number(p.get("session"));
    let found = sessions.find((s) => s.id === id);
    if (!found) {
      const machine = p.get("machine");
      const mine = sessions.filter((s) => !machine || s.machine === machine);
      found = mine.find((s) => s.kind !== "bisect") || mine[0] || sessions[0];
    }
    const measure = p.get("measure") || "time";
    return {
      machine: found ? found.machine : "",
      session: found ? found.id : null,
      measure: ["time", "cold", "cpu", "rss"].includes(measure) ? measure : "time",
      language: p.get("language") || "",
      family: p.get("family") || "",
      scenario: p.get("scenario") || "",
      size: p.get("size") || "",
    };
  }

  // The view into the URL (the same page, another query), without reloading.
  function remember(view) {
    const p = new URLSearchParams();
    for (const key of controls) {
      if (view[key] !== "" && view[key] !== null && !(key === "measure" && view[key] === "time")) {
        // The session names its machine: both in the URL only where the machine is chosen.
        if (key === "machine" && view.session !== "") continue;
        p.set(key, view[key]);
      }
    }
    const query = p.toString();
    history.replaceState(null, "", query ? "?" + query : location.pathname);
  }

  function sessions(data) {
    state.sessions = data;
    const select = $("session");
    const machines = Object.fromEntries(data.machines.map((m) => [m.key, m.fingerprint]));
    for (const s of data.sessions) {
      const when = s.started.replace("T", " ").replace("Z", "");
      const kind = s.kind === "run" ? "" : ` · ${s.kind}`;
      select.appendChild(new Option(`#${s.id} · ${when} · ${s.machine}${kind} · ${s.cases} cases`, s.id));
    }
    for (const m of data.machines) $("machine").appendChild(new Option(`${m.key} · ${m.fingerprint}`, m.key));
    for (const id of controls) {
      const control = $(id) || $("filter-" + id);
      control.addEventListener("change", () => {
        const view = wanted();
        view[id] = control.value;
        // A machine chosen opens its newest run; a session chosen names its machine.
        if (id === "machine") view.session = "";
        if (id === "session") view.machine = "";
        remember(view);
        show();
      });
    }
    show();
  }

  // Loads the session's data file, once; `session` (below) draws it.
  function show() {
    const view = wanted();
    if (view.session === null) {
      $("caption").textContent = "The store holds no session.";
      return;
    }
    if (state.session && state.session.id === view.session) {
      return draw(view);
    }
    if (state.loading === view.session) return;
    state.loading = view.session;
    const script = document.createElement("script");
    script.src = `data/session-${view.session}.js`;
    document.body.appendChild(script);
  }

  function session(data) {
    state.session = data;
    state.loading = null;
    show();
  }

  function options(id, values, chosen) {
    const select = $("filter-" + id);
    select.replaceChildren(new Option("all", ""));
    for (const v of values) select.appendChild(new Option(v, v));
    select.value = values.map(String).includes(chosen) ? chosen : "";
  }

  const unique = (list) => [...new Set(list)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  function draw(view) {
    const data = state.session;
    $("session").value = data.id;
    $("machine").value = data.machine;
    $("measure").value = view.measure;
    options("language", unique(data.contestants.map((c) => c.language)), view.language);
    options("family", unique(data.contestants.map((c) => c.family)), view.family);
    options("scenario", unique(data.points.map((p) => p.scenario)), view.scenario);
    const sizes = data.points.map((p) => p.size).filter((size) => size !== null);
    options("size", unique(sizes).sort((a, b) => a - b), view.size);
    data.points.forEach((p, i) => { p.index = i; });
    const points = data.points.filter((p) =>
      (!view.scenario || p.scenario === view.scenario) && (!view.size || String(p.size) === view.size));
    const shown = data.contestants.filter((c) =>
      (!view.language || c.language === view.language) && (!view.family || c.family === view.family));
    const best = points.map((p) => {
      const values = shown.filter((c) => !c.reference).map((c) => figure(c, p, view.measure))
        .filter((f) => f).map((f) => f[0]);
      return values.length ? Math.min(...values) : null;
    });
    const score = (c) => {
      const ratios = points.map((p, i) => { const f = figure(c, p, view.measure); return f && best[i] ? f[0] / best[i] : null; })
        .filter((r) => r);
      return ratios.length ? Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length) : Infinity;
    };
    const ranked = shown.filter((c) => !c.reference).map((c) => [score(c), c]).sort((a, b) => a[0] - b[0]);
    const measure = document.querySelector(`#measure option[value="${view.measure}"]`).textContent;
    $("caption").textContent = `${measure} · session #${data.id} · ${data.fingerprint} · ${ranked.length} runtimes × ${points.length} points`;
    $("session-line").textContent = `Started ${data.started}` + (data.commit ? ` at commit ${data.commit.slice(0, 10)}` : "") + ".";
    const head = document.createElement("tr");
    head.appendChild(th("col", "contestant"));
    head.appendChild(th("col", "mean ratio"));
    for (const p of points) head.appendChild(th("col", p.label));
    document.querySelector("#tournament thead").replaceChildren(head);
    $("ranked").replaceChildren(...ranked.map(([s, c]) => row(c, s, points, best, view.measure)));
    const apart = shown.filter((c) => c.reference);
    const rows = apart.map((c) => row(c, null, points, best, view.measure));
    if (rows.length) {
      const note = document.createElement("tr");
      const cell = th("colgroup", "reference, outside the ranking");
      cell.colSpan = points.length + 2;
      note.appendChild(cell);
      rows.unshift(note);
    }
    $("apart").replaceChildren(...rows);
    document.querySelector("footer").textContent = data.built;
    // Counted, so that a test (or anything watching) knows a drawing is done.
    document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
  }

  // A cell is [status, time, cold, cpu, rss] (data/session-N.js).
  const MEASURES = { time: 1, cold: 2, cpu: 3, rss: 4 };

  function figure(c, p, measure) {
    const cell = c.cells[p.index];
    return cell && cell[MEASURES[measure]] ? cell[MEASURES[measure]] : null;
  }

  function th(scope, text) {
    const cell = document.createElement("th");
    cell.scope = scope;
    cell.textContent = text;
    return cell;
  }

  function row(c, score, points, best, measure) {
    const tr = document.createElement("tr");
    tr.dataset.contestant = c.name;
    const name = th("row", "");
    const link = document.createElement("a");
    link.href = c.href;
    link.className = "runtime";
    link.textContent = c.name;
    name.appendChild(link);
    tr.appendChild(name);
    const mean = document.createElement("td");
    mean.textContent = score === null ? "reference" : isFinite(score) ? `× ${score.toFixed(2)}` : "–";
    tr.appendChild(mean);
    points.forEach((p, i) => tr.appendChild(cell(c, p, best[i], measure)));
    return tr;
  }

  function cell(c, p, best, measure) {
    const td = document.createElement("td");
    const data = c.cells[p.index];
    td.dataset.point = p.label;
    if (!data) { td.textContent = ""; return td; }
    const f = figure(c, p, measure);
    const link = document.createElement("a");
    link.href = `case/${c.slug}/${p.slug}.html#${state.session.machine}`;
    link.className = "case";
    if (!f) {
      // A status in its few first words; the whole on hover.
      const status = data[0] || "no figure";
      link.textContent = status.split(":")[0];
      link.title = `${c.name} · ${p.label}: ${status}`;
      td.className = "status";
    } else {
      const unit = measure === "rss" ? bytes : time;
      td.dataset.median = f[0];
      link.textContent = unit(f[0]);
      const interval = f[1] === null ? "no interval (one process)" :
        `95 % interval ${unit(f[1])} – ${unit(f[2])}` + (f[3] === null ? "" : ` (covers ${(100 * f[3]).toFixed(0)} %, fewer than six processes)`);
      const ratio = best ? f[0] / best : null;
      const title = `${c.name} · ${p.label}: ${unit(f[0])}, ${interval}, ${f[4]} process${f[4] === 1 ? "" : "es"}` + (ratio && !c.reference ? `, × ${ratio.toFixed(2)} the best` : "");
      link.title = title;
      link.setAttribute("aria-label", title);
      if (ratio && !c.reference) td.style.background = shade(ratio);
    }
    td.appendChild(link);
    return td;
  }

  // Light to darker warm shades as the ratio to the best grows; text stays dark on all.
  function shade(ratio) {
    const steps = [[1.05, "#e8f5e9"], [1.25, "#f3f8e3"], [2, "#fff6d6"], [4, "#ffe8cc"], [Infinity, "#fddcd5"]];
    return steps.find(([limit]) => ratio <= limit)[1];
  }

  function time(ns) {
    const units = [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]];
    const [div, name] = units.find(([d]) => Math.abs(ns) >= d) || units[3];
    return `${(ns / div).toPrecision(3)} ${name}`;
  }

  function bytes(b) {
    const units = [[2 ** 30, "GiB"], [2 ** 20, "MiB"], [2 ** 10, "KiB"], [1, "B"]];
    const [div, name] = units.find(([d]) => Math.abs(b) >= d) || units[3];
    return `${(b / div).toPrecision(3)} ${name}`;
  }

  return { sessions, session };
})();
