// subcog's memory viewer. Plain DOM, no framework, no request anywhere but this server.
// Memory text is hostile until shown otherwise: it only ever enters the page as text
// nodes (h() below), never as markup.
'use strict';

(() => {
  const TOKEN = new URLSearchParams(location.search).get('token') || '';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const SVG_TAGS = new Set(['svg', 'g', 'line', 'circle', 'rect', 'text', 'title', 'path', 'defs', 'marker']);
  const TIERS = ['hot', 'warm', 'cold', 'archived'];
  const STATUSES = ['active', 'superseded', 'archived', 'deleted', 'quarantined'];
  const main = document.getElementById('main');
  let overview = null;

  // An element: attributes set one by one, children appended as nodes or text.
  function h(tag, attrs, ...children) {
    const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'value') el.value = v;
      else if (k === 'checked' || k === 'selected') el[k] = Boolean(v);
      else el.setAttribute(k, String(v));
    }
    add(el, children);
    return el;
  }

  function add(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function show(...nodes) {
    main.replaceChildren(...nodes.flat(Infinity).filter(Boolean));
  }

  async function api(method, path, body) {
    const headers = { Authorization: `Bearer ${TOKEN}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
    return data;
  }

  function toast(text, bad) {
    const t = document.getElementById('toast');
    t.textContent = text;
    t.className = bad ? 'show bad' : 'show';
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = ''; }, 3000);
  }

  function failure(err) {
    return h('p', { class: 'error' }, String(err.message || err));
  }

  // ---- small pieces -------------------------------------------------------------------

  const memoryHref = (id) => `#/memory/${encodeURIComponent(id)}`;
  const shortId = (id) => String(id).slice(-6);
  const day = (ts) => (ts ? String(ts).slice(0, 10) : '–');
  const when = (ts) => (ts ? String(ts).slice(0, 16).replace('T', ' ') : '–');
  const num = (x, d = 2) => (typeof x === 'number' ? x.toFixed(d) : '–');
  const badge = (kind, text) => h('span', { class: `badge ${kind}` }, text);
  const tierBadge = (t) => badge(`tier-${t}`, t);

  function nsClass(ns) {
    let x = 0;
    for (const c of String(ns)) x = (x * 31 + c.charCodeAt(0)) >>> 0;
    return `ns-${x % 10}`;
  }

  function options(values, selected, blank) {
    const out = blank === undefined ? [] : [h('option', { value: '' }, blank)];
    for (const v of values) {
      const [value, label] = Array.isArray(v) ? v : [v, v];
      out.push(h('option', { value, selected: value === selected }, label));
    }
    return out;
  }

  function memoryCard(m, extra) {
    return h('article', { class: 'card' },
      h('div', { class: 'card-head' },
        h('a', { href: memoryHref(m.id), class: 'title' }, m.summary || '(no summary)'),
        h('span', { class: 'meta' },
          badge(`ns ${nsClass(m.namespace)}`, m.namespace),
          tierBadge(m.tier),
          m.status !== 'active' ? badge(`status-${m.status}`, m.status) : null,
          m.superseded_by ? badge('status-superseded', `superseded by …${shortId(m.superseded_by)}`) : null,
          h('span', { class: 'muted' }, day(m.created_at)),
          typeof m.score === 'number' ? h('span', { class: 'score' }, m.score.toFixed(4)) : null)),
      h('p', { class: 'preview' }, m.content.length > 400 ? `${m.content.slice(0, 400)}…` : m.content),
      extra || null);
  }

  // Why a result ranked where it did: each channel's rank and score, boosts, moves.
  function explanation(e) {
    if (!e) return null;
    const chan = (name, c) => h('span', { class: c ? 'chip on' : 'chip' },
      c ? `${name} #${c.rank} · ${c.score.toFixed(3)}` : `${name} –`);
    return h('div', { class: 'explain' },
      chan('keywords', e.bm25),
      chan('meaning', e.vector),
      chan('time', e.time),
      e.tag_boost ? h('span', { class: 'chip on' }, `tags ×${e.boost.toFixed(2)} [${(e.boost_tags || []).join(', ')}]`) : null,
      h('span', { class: 'chip' }, `fused ${e.fused.toFixed(4)}`),
      e.placed_above ? h('a', { class: 'chip', href: memoryHref(e.placed_above) }, `placed above …${shortId(e.placed_above)} it replaced`) : null,
      e.stands_for ? h('a', { class: 'chip', href: memoryHref(e.stands_for) }, `stands for superseded …${shortId(e.stands_for)}`) : null);
  }

  // ---- search -------------------------------------------------------------------------

  function searchView(params) {
    const q = params.get('q') || '';
    const input = h('input', { type: 'search', name: 'q', value: q, placeholder: 'Search memories (words or a question)', autofocus: true, 'aria-label': 'query' });
    const mode = h('select', { name: 'mode', 'aria-label': 'mode' }, options(
      [['', 'standard tiers'], ['reflexive', 'hot only'], ['deep', '+ cold'], ['exhaustive', 'every tier']], params.get('mode') || ''));
    const ns = h('select', { name: 'namespace', 'aria-label': 'namespace' }, options(overview ? overview.namespaces : [], params.get('namespace') || '', 'any namespace'));
    const results = h('div', { id: 'results' });
    const form = h('form', { class: 'bar', onsubmit: (ev) => { ev.preventDefault(); go(); } },
      input, mode, ns, h('button', { type: 'submit' }, 'Search'));
    function go() {
      const p = new URLSearchParams();
      if (input.value.trim()) p.set('q', input.value.trim());
      if (mode.value) p.set('mode', mode.value);
      if (ns.value) p.set('namespace', ns.value);
      history.replaceState(null, '', `#/search?${p}`);
      runSearch(p, results);
    }
    let timer;
    input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(go, 250); });
    show(form, results);
    input.focus();
    if (q) runSearch(params, results);
    else results.append(h('p', { class: 'muted' }, 'Type to search. Each result says how it was found: its rank in the keyword, meaning and time channels.'));
  }

  async function runSearch(params, results) {
    if (!params.get('q')) { results.replaceChildren(); return; }
    const asked = params.toString();
    runSearch.last = asked;
    try {
      const r = await api('GET', `/api/search?${params}`);
      if (runSearch.last !== asked) return; // a newer search answered first
      const head = h('p', { class: 'muted' },
        `${r.results.length} result${r.results.length === 1 ? '' : 's'} in ${r.took_ms.toFixed(1)} ms · terms: ${r.terms.join(' ') || '–'} · mode ${r.mode} · `,
        r.semantic ? 'by meaning and keywords' : `keywords only (${r.semantic_unavailable || 'no model'})`);
      const answer = r.answer ? h('div', { class: 'answer' },
        h('strong', {}, r.answer.answer),
        h('span', { class: 'muted' }, ` confidence ${num(r.answer.confidence)} · ${r.answer.method}`),
        r.answer.reasoning ? h('p', { class: 'muted' }, r.answer.reasoning) : null) : null;
      results.replaceChildren(head, answer || '',
        ...r.results.map((m) => memoryCard(m, explanation(m.explain))));
      if (!r.results.length) results.append(h('p', {}, 'No memories match.'));
    } catch (err) {
      results.replaceChildren(failure(err));
    }
  }

  // ---- browse -------------------------------------------------------------------------

  function browseView(params) {
    const field = (name, node) => h('label', {}, name, node);
    const ns = h('select', { name: 'namespace' }, options(overview ? overview.namespaces : [], params.get('namespace') || '', 'any'));
    const tier = h('select', { name: 'tier' }, options(TIERS, params.get('tier') || '', 'any'));
    const status = h('select', { name: 'status' }, options(STATUSES, params.get('status') || '', 'any but deleted'));
    const since = h('input', { name: 'since', value: params.get('since') || '', placeholder: 'e.g. last week' });
    const until = h('input', { name: 'until', value: params.get('until') || '', placeholder: 'e.g. 2026-01-31' });
    const order = h('select', { name: 'order' }, options([['newest', 'newest first'], ['oldest', 'oldest first']], params.get('order') || 'newest'));
    const list = h('div', { id: 'results' });
    const form = h('form', { class: 'filters', onsubmit: (ev) => {
      ev.preventDefault();
      const p = new URLSearchParams();
      for (const el of [ns, tier, status, since, until, order]) if (el.value) p.set(el.name, el.value);
      location.hash = `#/browse?${p}`;
    } },
    field('namespace', ns), field('tier', tier), field('status', status),
    field('since', since), field('until', until), field('order', order),
    h('button', { type: 'submit' }, 'Show'));
    show(facets(), form, list);
    loadPage(params, list, null);
  }

  // Counts by namespace and tier; each a link to the list it counts.
  function facets() {
    if (!overview) return null;
    const link = (key, value, n) => h('a', { href: `#/browse?${key}=${encodeURIComponent(value)}`, class: 'facet' }, `${value} `, h('b', {}, n));
    return h('div', { class: 'facets' },
      h('div', {}, h('span', { class: 'muted' }, 'namespaces '),
        Object.entries(overview.by_namespace).map(([k, v]) => link('namespace', k, v))),
      h('div', {}, h('span', { class: 'muted' }, 'tiers '),
        TIERS.map((t) => link('tier', t, overview.by_tier[t] || 0))),
      h('div', {}, h('span', { class: 'muted' }, 'status '),
        Object.entries(overview.by_status).map(([k, v]) => link('status', k, v))));
  }

  async function loadPage(params, list, after) {
    const p = new URLSearchParams(params);
    p.set('limit', '50');
    if (after) p.set('after', after);
    try {
      const r = await api('GET', `/api/memories?${p}`);
      list.querySelector('.more')?.remove();
      list.append(...r.results.map((m) => memoryCard(m)));
      if (!after && !r.results.length) list.append(h('p', {}, 'No memories.'));
      if (r.more) {
        const last = r.results[r.results.length - 1].id;
        list.append(h('button', { class: 'more', onclick: () => loadPage(params, list, last) }, 'More'));
      }
    } catch (err) {
      list.append(failure(err));
    }
  }

  // ---- one memory ---------------------------------------------------------------------

  async function memoryView(id) {
    show(h('p', { class: 'muted' }, 'Loading…'));
    let page;
    try {
      page = await api('GET', `/api/memories/${encodeURIComponent(id)}/explain`);
    } catch (err) {
      show(failure(err));
      return;
    }
    const m = page.memory;
    const rows = [
      ['id', `${m.id} (…${page.handle})`],
      ['namespace', m.namespace],
      ['domain / scope', `${m.domain} / ${page.scope}`],
      ['tags', m.tags.length ? m.tags.join(', ') : '–'],
      ['source', m.source || '–'],
      ['importance', m.importance === null || m.importance === undefined ? '–' : num(m.importance)],
      ['priority', m.priority],
      ['status', m.status],
      ['created', `${when(m.created_at)} by ${m.created_by}`],
      ['updated', when(m.updated_at)],
      ['tier', h('span', {}, tierBadge(m.tier), ` retention ${num(m.retention.overall)} as the last run stored it (below: now)`)],
      ['activations', `${m.activation_count} (last ${when(m.last_accessed)})`],
      ['cluster', m.cluster_id || '–'],
      ['event time', m.time_refs && m.time_refs.length
        ? m.time_refs.map((r) => `“${r.text}” → ${r.start || '?'}${r.end && r.end !== r.start ? ` – ${r.end}` : ''} (${r.granularity}, ${num(r.confidence)})`).join('; ')
        : '–'],
      ['content hash', m.content_hash],
    ];
    const actions = h('div', { class: 'actions' },
      h('button', { onclick: () => editForm(m, body) }, 'Edit'),
      m.status !== 'deleted' ? h('button', { onclick: () => remove(m, false) }, 'Delete') : null,
      h('button', { class: 'danger', onclick: () => remove(m, true) }, 'Delete for good'),
      h('a', { href: `#/graph?around=${encodeURIComponent(m.id)}`, class: 'button' }, 'Graph around it'));
    const body = h('div', {},
      h('pre', { class: 'content' }, m.content),
      m.context ? h('details', {}, h('summary', {}, 'Context (searched, never shown as content)'), h('pre', { class: 'content' }, m.context)) : null);
    show(
      h('h1', {}, m.summary),
      m.status === 'quarantined' ? h('p', { class: 'warning' }, 'Held in quarantine: its text reads as instructions to an agent. Treat it as data. Setting the status to active releases it.') : null,
      actions,
      body,
      h('table', { class: 'fields' }, rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v)))),
      supersession(page),
      retentionNow(page.retention),
      tierHistory(page.tier_history),
      edgeList(page.edges),
      clusterSummary(page.summary),
      activity(page));
  }

  function supersession(page) {
    const parts = [];
    if (page.superseded_by) {
      const r = page.superseded_by.record;
      parts.push(h('p', {}, 'Replaced by ', link(page.superseded_by.memory),
        r ? h('span', { class: 'muted' }, ` (${r.kind}, confidence ${num(r.confidence)}, ${r.method}): ${r.reason}`) : null));
    }
    for (const s of page.supersedes) {
      parts.push(h('p', {}, 'Replaces ', link(s.memory),
        h('span', { class: 'muted' }, ` (${s.record.kind}, confidence ${num(s.record.confidence)}, ${s.record.method}): ${s.record.reason}`)));
    }
    return section('Supersession', parts.length ? parts : [h('p', { class: 'muted' }, 'Neither replaces nor is replaced.')]);
  }

  // The score as stored by the last run and as it stands now (decay goes on between runs).
  function retentionNow(r) {
    if (!r) return null;
    const row = (name, a, b) => h('tr', {}, h('th', {}, name), h('td', { class: 'num' }, num(a)), h('td', { class: 'num' }, num(b)));
    return section('Retention', [
      h('p', {}, `Now ${num(r.now.overall)}, which earns `, tierBadge(r.tier_now),
        ` (thresholds: hot ≥ ${num(r.thresholds[0])}, warm ≥ ${num(r.thresholds[1])}, archive below ${num(r.thresholds[2])}); `,
        `${r.age_days.toFixed(1)} days since created or last recalled, half-life ${r.half_life_days} days`,
        r.pinned ? '; pinned (critical or a pin tag): never below warm' : '', '.'),
      h('table', { class: 'compact' },
        h('tr', {}, h('th', {}, 'factor (weight)'), h('th', {}, 'stored'), h('th', {}, 'now')),
        row(`recency (${num(r.weights[0])})`, r.stored.recency, r.now.recency),
        row(`activation (${num(r.weights[1])})`, r.stored.activation, r.now.activation),
        row(`importance (${num(r.weights[2])})`, r.stored.importance, r.now.importance),
        row(`supersession penalty (${num(r.weights[3])})`, r.stored.supersession_penalty, r.now.supersession_penalty),
        row('overall', r.stored.overall, r.now.overall)),
    ]);
  }

  // The last sessions it reached and the last recalls that returned it.
  function activity(page) {
    if (page.activity_unavailable) return section('Activity', [h('p', { class: 'muted' }, `Not readable: ${page.activity_unavailable}`)]);
    const rows = (list) => h('table', {}, list.map((a) => h('tr', {}, h('td', {}, when(a.at)), h('td', {}, a.via),
      h('td', {}, a.session || a.query || ''), h('td', { class: 'num' }, `#${a.rank}`), h('td', { class: 'num' }, num(a.score, 3)))));
    return section('Activity', [
      h('p', { class: 'muted' }, `Injected into sessions ${page.injected_count} times, returned by recalls ${page.recalled_count} times (the log keeps 90 days; the viewer's own searches are not counted).`),
      page.injections.length ? h('h3', {}, 'Last injections') : null,
      page.injections.length ? rows(page.injections) : null,
      page.recalls.length ? h('h3', {}, 'Last recalls') : null,
      page.recalls.length ? rows(page.recalls) : null,
    ]);
  }

  function link(b) {
    return h('a', { href: memoryHref(b.id) }, b.label || b.id);
  }

  function tierHistory(ts) {
    if (!ts.length) return section('Tier history', [h('p', { class: 'muted' }, 'No tier changes recorded (consolidation has not moved it).')]);
    return section('Tier history', [h('table', {},
      h('tr', {}, h('th', {}, 'when'), h('th', {}, 'change'), h('th', {}, 'score'), h('th', {}, 'why'), h('th', {}, 'run')),
      ts.map((t) => h('tr', {}, h('td', {}, when(t.at)), h('td', {}, tierBadge(t.from_tier), ' → ', tierBadge(t.to_tier)),
        h('td', { class: 'num' }, num(t.retention_score)), h('td', {}, t.reason), h('td', { class: 'muted' }, t.run_id))))]);
  }

  function edgeList(edges) {
    if (!edges.length) return section('Edges', [h('p', { class: 'muted' }, 'No edges (consolidation draws them).')]);
    return section('Edges', [h('table', {}, edges.map((x) => h('tr', {},
      h('td', {}, x.outgoing ? '→' : '←'),
      h('td', {}, badge(`edge-${x.type}`, x.type.replace('_', ' '))),
      h('td', { class: 'num' }, num(x.edge.weight)),
      h('td', {}, x.other.kind === 'memory' ? h('a', { href: memoryHref(x.other.id) }, x.other.label) : x.other.label),
      h('td', { class: 'muted' }, x.edge.reason))))]);
  }

  function clusterSummary(s) {
    if (!s) return section('Cluster summary', [h('p', { class: 'muted' }, 'Not part of a summarized cluster.')]);
    return section(`Cluster summary: ${s.title}`, [
      h('p', {}, s.summary),
      s.key_facts.length ? h('ul', {}, s.key_facts.map((f) => h('li', {}, f))) : null,
      s.decisions.length ? h('ul', {}, s.decisions.map((d) => h('li', {}, `decision: ${d.decision}${d.rationale ? ` — ${d.rationale}` : ''}`))) : null,
      s.superseded_facts.length ? h('ul', {}, s.superseded_facts.map((f) => h('li', {}, `outdated: ${f.original_fact} (now: ${f.superseded_by})`))) : null,
      h('p', { class: 'muted' }, `${s.source_ids.length} memories, ${day(s.start)} to ${day(s.end)}, confidence ${num(s.confidence)}, ${s.method}: `,
        s.source_ids.map((id) => h('a', { href: memoryHref(id), class: 'chip' }, `…${shortId(id)}`))),
    ]);
  }

  function section(title, children) {
    return h('section', {}, h('h2', {}, title), children);
  }

  // The edit form sends only the fields that changed; the server applies `subcog update`.
  function editForm(m, body) {
    const content = h('textarea', { name: 'content', rows: 8, value: m.content });
    const summary = h('input', { name: 'summary', value: m.summary });
    const namespace = h('select', { name: 'namespace' }, options(overview ? overview.namespaces : [m.namespace], m.namespace));
    const newNs = h('input', { name: 'new_namespace', placeholder: 'or a new namespace' });
    const tags = h('input', { name: 'tags', value: m.tags.join(', ') });
    const source = h('input', { name: 'source', value: m.source || '' });
    const importance = h('input', { name: 'importance', type: 'number', min: 0, max: 1, step: 0.05, value: m.importance ?? '' });
    const priority = h('select', { name: 'priority' }, options(['normal', 'critical'], m.priority));
    const status = h('select', { name: 'status' }, options(STATUSES, m.status));
    const error = h('p', { class: 'error' });
    const field = (name, node) => h('label', {}, h('span', {}, name), node);
    const form = h('form', { class: 'edit', onsubmit: async (ev) => {
      ev.preventDefault();
      const change = {};
      if (content.value !== m.content) change.content = content.value;
      if (summary.value !== m.summary) change.summary = summary.value;
      const ns = newNs.value.trim() || namespace.value;
      if (ns !== m.namespace) { change.namespace = ns; change.allow_new_namespace = Boolean(newNs.value.trim()); }
      const tagList = tags.value.split(',').map((t) => t.trim()).filter(Boolean);
      if (tagList.join(',') !== m.tags.join(',')) change.tags = tagList;
      if (source.value !== (m.source || '')) change.source = source.value;
      if (importance.value !== '' && Number(importance.value) !== m.importance) change.importance = Number(importance.value);
      if (priority.value !== m.priority) change.priority = priority.value;
      if (status.value !== m.status) change.status = status.value;
      if (!Object.keys(change).length) { error.textContent = 'Nothing changed.'; return; }
      try {
        const saved = await api('PATCH', `/api/memories/${encodeURIComponent(m.id)}`, change);
        toast(saved.status === 'quarantined' ? 'Saved, and held in quarantine' : 'Saved');
        memoryView(m.id);
      } catch (err) {
        error.textContent = err.message;
      }
    } },
    field('content', content), field('summary', summary),
    field('namespace', h('span', { class: 'pair' }, namespace, newNs)), field('tags', tags), field('source', source),
    field('importance', importance), field('priority', priority), field('status', status),
    error,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save'),
      h('button', { type: 'button', onclick: () => memoryView(m.id) }, 'Cancel')));
    body.replaceChildren(form);
    content.focus();
  }

  async function remove(m, hard) {
    const question = hard
      ? 'Delete this memory for good? Its note and enrichment are removed; this cannot be undone.'
      : 'Delete this memory? It leaves recall and lists; setting its status to active restores it.';
    if (!confirm(question)) return;
    try {
      await api('DELETE', `/api/memories/${encodeURIComponent(m.id)}${hard ? '?hard=true&yes=true' : ''}`);
      toast(hard ? 'Deleted for good' : 'Deleted');
      if (hard) location.hash = '#/browse';
      else memoryView(m.id);
    } catch (err) {
      toast(err.message, true);
    }
  }

  // ---- graph --------------------------------------------------------------------------

  async function graphView(params) {
    show(h('p', { class: 'muted' }, 'Loading the graph…'));
    const p = new URLSearchParams();
    if (params.get('around')) p.set('around', params.get('around'));
    p.set('limit', params.get('limit') || '150');
    let g;
    try {
      g = await api('GET', `/api/graph?${p}`);
    } catch (err) {
      show(failure(err));
      return;
    }
    if (!g.nodes.length) {
      show(h('p', {}, 'No edges yet. `subcog consolidate` draws the graph (supersession, clusters, references).'));
      return;
    }
    const heading = h('p', { class: 'muted' },
      g.around ? `Within two steps of ${g.around}: ` : 'The best-connected memories: ',
      `${g.nodes.length} of ${g.total_nodes} nodes, ${g.edges.length} of ${g.total_edges} edges. Click a node to open it.`);
    const types = [...new Set(g.edges.map((e) => e.type))].sort();
    const legend = h('div', { class: 'legend' }, types.map((t) => badge(`edge-${t}`, t.replace('_', ' '))),
      badge('summary-node', 'cluster summary'));
    show(heading, legend, drawGraph(g, params.get('around')));
  }

  // Each connected part is laid out on its own (Fruchterman–Reingold: nodes repel, edges
  // pull, the step cools; a deterministic start), then the parts are packed in rows,
  // largest first: a store of many small clusters reads as a sheet of them. One node of
  // each part is labelled (its cluster summary when it has one), and its box makes room.
  function layout(nodes, edges, width) {
    const n = nodes.length;
    const index = new Map(nodes.map((node, i) => [node.id, i]));
    const links = edges.map((e) => [index.get(e.source), index.get(e.target)])
      .filter(([a, b]) => a !== undefined && b !== undefined && a !== b);
    const degree = new Array(n).fill(0);
    for (const [a, b] of links) { degree[a]++; degree[b]++; }
    const parent = Array.from({ length: n }, (_, i) => i);
    const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
    for (const [a, b] of links) parent[find(a)] = find(b);
    const groups = new Map();
    for (let i = 0; i < n; i++) {
      const r = find(i);
      if (!groups.has(r)) groups.set(r, []);
      groups.get(r).push(i);
    }
    const parts = [...groups.values()].sort((a, b) => b.length - a.length);
    const x = new Float64Array(n), y = new Float64Array(n);
    const radius = (i) => 5 + Math.min(degree[i], 12) * 0.6;
    const labels = new Map();
    const gap = 28;
    let cx = gap, cy = gap, row = 0;
    for (const members of parts) {
      placePart(members, links, x, y, 46);
      const named = members.reduce((best, i) => {
        const rank = (j) => (nodes[j].kind === 'summary' ? 1000 : 0) + degree[j];
        return rank(i) > rank(best) ? i : best;
      }, members[0]);
      if (labels.size < 60) {
        const text = nodes[named].label;
        labels.set(named, text.length > 28 ? `${text.slice(0, 27)}…` : text);
      }
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const i of members) {
        const r = radius(i);
        x0 = Math.min(x0, x[i] - r); x1 = Math.max(x1, x[i] + r); y0 = Math.min(y0, y[i] - r); y1 = Math.max(y1, y[i] + r);
      }
      if (labels.has(named)) x1 = Math.max(x1, x[named] + radius(named) + 4 + labels.get(named).length * 6.2);
      const w = x1 - x0, hgt = y1 - y0;
      if (cx + w > width - gap && cx > gap) { cx = gap; cy += row + gap; row = 0; }
      for (const i of members) { x[i] += cx - x0; y[i] += cy - y0; }
      cx += w + gap;
      row = Math.max(row, hgt);
    }
    return { x, y, index, degree, radius, labels, height: cy + row + gap };
  }

  function placePart(members, links, x, y, k) {
    const m = members.length;
    const local = new Map(members.map((i, j) => [i, j]));
    const own = links.filter(([a]) => local.has(a));
    members.forEach((i, j) => {
      const r = k * 0.5 * Math.sqrt(j + 0.5);
      const a = j * 2.399963; // the golden angle spreads the start evenly
      x[i] = r * Math.cos(a);
      y[i] = r * Math.sin(a);
    });
    const dx = new Float64Array(m), dy = new Float64Array(m);
    const rounds = m > 1 ? 200 : 0;
    for (let round = 0; round < rounds; round++) {
      dx.fill(0); dy.fill(0);
      for (let p = 0; p < m; p++) {
        for (let q = p + 1; q < m; q++) {
          const i = members[p], j = members[q];
          let ddx = x[i] - x[j], ddy = y[i] - y[j];
          let d2 = ddx * ddx + ddy * ddy;
          if (d2 < 0.01) { ddx = 0.1; ddy = 0.1 * ((p % 3) - 1); d2 = 0.02; }
          const f = (k * k) / d2;
          dx[p] += ddx * f; dy[p] += ddy * f; dx[q] -= ddx * f; dy[q] -= ddy * f;
        }
      }
      for (const [a, b] of own) {
        const p = local.get(a), q = local.get(b);
        const ddx = x[a] - x[b], ddy = y[a] - y[b];
        const f = Math.sqrt(ddx * ddx + ddy * ddy) / k;
        dx[p] -= ddx * f; dy[p] -= ddy * f; dx[q] += ddx * f; dy[q] += ddy * f;
      }
      const temp = 2 * k * (1 - round / rounds) + 0.5;
      members.forEach((i, p) => {
        const len = Math.sqrt(dx[p] * dx[p] + dy[p] * dy[p]) || 1;
        const step = Math.min(len, temp);
        x[i] += (dx[p] / len) * step;
        y[i] += (dy[p] / len) * step;
      });
    }
  }

  function drawGraph(g, around) {
    const width = 1000;
    const { x, y, index, degree, radius, labels, height } = layout(g.nodes, g.edges, width);
    const svg = h('svg', { viewBox: `0 0 ${width} ${Math.max(height, 200)}`, class: 'graph', role: 'img', 'aria-label': 'memory graph' },
      h('defs', {}, h('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
        h('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }))));
    const lines = h('g', {});
    for (const e of g.edges) {
      const a = index.get(e.source), b = index.get(e.target);
      if (a === undefined || b === undefined || a === b) continue;
      // Stop at the target's rim so the arrowhead shows.
      const len = Math.hypot(x[b] - x[a], y[b] - y[a]) || 1;
      const back = (radius(b) + 1) / len;
      lines.append(h('line', { x1: x[a], y1: y[a], x2: x[b] - (x[b] - x[a]) * back, y2: y[b] - (y[b] - y[a]) * back,
        class: `edge edge-${e.type}`, 'marker-end': 'url(#arrow)' },
      h('title', {}, `${e.type.replace('_', ' ')} ${num(e.weight)}: ${e.reason}`)));
    }
    const dots = h('g', {});
    g.nodes.forEach((node, i) => {
      const r = radius(i);
      const shape = node.kind === 'summary'
        ? h('rect', { x: x[i] - r, y: y[i] - r, width: 2 * r, height: 2 * r, class: 'node summary-node' })
        : h('circle', { cx: x[i], cy: y[i], r, class: `node ${nsClass(node.namespace || '')}${node.id === around ? ' center' : ''}` });
      const item = h('g', { class: 'node-group', tabindex: 0 }, shape,
        h('title', {}, `${node.label}${node.namespace ? ` [${node.namespace}, ${node.tier}]` : ''} · ${degree[i]} edges`));
      if (labels.has(i)) item.append(h('text', { x: x[i] + r + 4, y: y[i] + 4, class: 'node-label' }, labels.get(i)));
      if (node.kind === 'memory') {
        const open = () => { location.hash = memoryHref(node.id); };
        item.addEventListener('click', open);
        item.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') open(); });
      }
      dots.append(item);
    });
    svg.append(lines, dots);
    return svg;
  }

  // ---- runs ---------------------------------------------------------------------------

  async function runsView() {
    show(h('p', { class: 'muted' }, 'Loading runs…'));
    let runs;
    try {
      runs = await api('GET', '/api/runs?limit=50');
    } catch (err) {
      show(failure(err));
      return;
    }
    if (!runs.length) {
      show(h('p', {}, 'No consolidation runs yet (`subcog consolidate`).'));
      return;
    }
    show(h('h1', {}, 'Consolidation runs'), runs.map((r, i) => runCard(r, i === 0)));
  }

  function runCard(r, open) {
    const seconds = r.completed_at ? ((Date.parse(r.completed_at) - Date.parse(r.started_at)) / 1000).toFixed(1) : null;
    const ids = (list) => list.map((id) => h('a', { href: memoryHref(id), class: 'chip' }, `…${shortId(id)}`));
    return h('details', { class: 'run', open },
      h('summary', {},
        h('b', {}, when(r.started_at)), ` ${r.scope} · ${r.trigger} · ${r.phase}${r.dry_run ? ' (dry run)' : ''}${seconds ? ` · ${seconds} s` : ''} — `,
        `${r.memories_processed} memories, ${r.clusters_found} clusters, ${r.summaries_created} summaries, ${r.supersessions_detected} supersessions, ${r.tier_transitions.length} tier changes, ${r.actions.length} actions, ${r.memories_changed} changed`,
        r.errors.length ? badge('status-quarantined', `${r.errors.length} errors`) : null),
      h('p', { class: 'muted' }, r.run_id, r.llm ? ` · LLM ${r.llm.providers.join(', ')}: ${r.llm.usage.calls} calls, $${num(r.llm.usage.cost_usd, 4)}` : ' · offline'),
      r.actions.length ? h('table', {}, h('tr', {}, h('th', {}, 'action'), h('th', {}, 'memories'), h('th', {}, 'why')),
        r.actions.map((a) => h('tr', {}, h('td', {}, a.action), h('td', {}, ids(a.memory_ids)), h('td', {}, a.reason)))) : null,
      r.tier_transitions.length ? h('table', {}, h('tr', {}, h('th', {}, 'memory'), h('th', {}, 'tier'), h('th', {}, 'score'), h('th', {}, 'why')),
        r.tier_transitions.map((t) => h('tr', {}, h('td', {}, ids([t.memory_id])), h('td', {}, tierBadge(t.from_tier), ' → ', tierBadge(t.to_tier)),
          h('td', {}, num(t.retention_score)), h('td', {}, t.reason)))) : null,
      r.errors.length ? h('ul', { class: 'error' }, r.errors.map((e) => h('li', {}, e))) : null,
      r.stage_ms.length ? h('p', { class: 'muted' }, 'stages: ', r.stage_ms.map(([s, ms]) => `${s} ${ms} ms`).join(', ')) : null);
  }

  // ---- tiers --------------------------------------------------------------------------

  async function tiersView() {
    show(h('p', { class: 'muted' }, 'Loading tiers…'));
    let t;
    try {
      t = await api('GET', '/api/tiers');
    } catch (err) {
      show(failure(err));
      return;
    }
    const total = TIERS.reduce((s, k) => s + (t.distribution[k] || 0), 0) || 1;
    const bars = h('div', { class: 'bars' }, TIERS.map((k) => h('div', { class: 'bar-row' },
      h('span', { class: 'bar-label' }, k),
      h('span', { class: 'bar-track' }, h('span', { class: `bar-fill tier-${k}`, 'data-share': (t.distribution[k] || 0) / total })),
      h('span', { class: 'bar-count' }, t.distribution[k] || 0))));
    show(
      h('h1', {}, 'Tiers'),
      bars,
      section('Over time', [h('p', { class: 'muted' }, t.method), historyChart(t.history)]),
      section('Latest tier changes', [t.recent.length ? h('table', {}, t.recent.map((r) => h('tr', {},
        h('td', {}, when(r.at)), h('td', {}, h('a', { href: memoryHref(r.memory_id) }, `…${shortId(r.memory_id)}`)),
        h('td', {}, tierBadge(r.from_tier), ' → ', tierBadge(r.to_tier)), h('td', {}, r.reason)))) : h('p', { class: 'muted' }, 'None recorded.')]));
    // Widths are set through the CSSOM: the policy forbids style attributes.
    for (const fill of main.querySelectorAll('.bar-fill')) fill.style.width = `${(Number(fill.dataset.share) * 100).toFixed(1)}%`;
  }

  // Stacked columns, one per run (and now), tiers bottom to top.
  function historyChart(points) {
    const width = 1000, height = 260, pad = 40;
    const max = Math.max(1, ...points.map((p) => TIERS.reduce((s, k) => s + (p.counts[k] || 0), 0)));
    const col = (width - 2 * pad) / points.length;
    const svg = h('svg', { viewBox: `0 0 ${width} ${height + 30}`, class: 'history', role: 'img', 'aria-label': 'tier distribution over time' });
    points.forEach((p, i) => {
      let top = height;
      for (const k of TIERS) {
        const n = p.counts[k] || 0;
        const hgt = ((height - pad) * n) / max;
        top -= hgt;
        svg.append(h('rect', { x: pad + i * col + col * 0.15, y: top, width: col * 0.7, height: hgt, class: `tier-${k}` },
          h('title', {}, `${p.label}: ${k} ${n}`)));
      }
      if (points.length <= 12 || i % Math.ceil(points.length / 12) === 0 || i === points.length - 1) {
        svg.append(h('text', { x: pad + i * col + col / 2, y: height + 18, class: 'axis', 'text-anchor': 'middle' }, p.label));
      }
    });
    svg.append(h('text', { x: 4, y: pad - 8, class: 'axis' }, `${max}`));
    return h('div', {}, svg, h('div', { class: 'legend' }, TIERS.map((k) => badge(`tier-${k}`, k))));
  }

  // ---- frame --------------------------------------------------------------------------

  async function loadOverview() {
    try {
      overview = await api('GET', '/api/overview');
      const live = Object.values(overview.by_tier).reduce((a, b) => a + b, 0);
      document.getElementById('stats').replaceChildren(
        `${live} memories · `, ...TIERS.map((t) => badge(`tier-${t}`, `${t} ${overview.by_tier[t] || 0}`)),
        overview.semantic ? '' : badge('status-quarantined', 'keywords only'));
    } catch (err) {
      document.getElementById('stats').textContent = err.message;
    }
  }

  function route() {
    const [path, qs] = location.hash.replace(/^#/, '').split('?');
    const parts = path.split('/').filter(Boolean);
    const params = new URLSearchParams(qs || '');
    const view = parts[0] || 'search';
    for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === view);
    switch (view) {
      case 'memory': return memoryView(decodeURIComponent(parts[1] || ''));
      case 'browse': return browseView(params);
      case 'graph': return graphView(params);
      case 'runs': return runsView();
      case 'tiers': return tiersView();
      default: return searchView(params);
    }
  }

  window.addEventListener('hashchange', route);
  loadOverview().then(route);
})();
