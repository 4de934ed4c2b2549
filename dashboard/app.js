// zkfleet dashboard: follows the scheduler's /v1/events (docs/api.md) and draws the node table,
// the job queue, the waterfall of the merged timeline, throughput and the bottleneck verdict.
// Plain script, no framework, no network beyond the scheduler that served it.
'use strict';

// ---- stages (common/timeline/event.cpp) -----------------------------------------------------
// Top-level stages are drawn on the row; the prover's stages (children of GPU) and a Filecoin
// PoRep or SnapDeals synthesis's (children of SYNTH) as a thin strip under it; DONE is an instant
// (a mark), as are WIRE_PACKED and WIRE_FULL (a `wire: auto` circuit's choice at dispatch).
const TOP = ['QUEUED', 'SYNTH', 'CHAN_SEND', 'XFER', 'GPU_PICKUP', 'GPU'];
const PROVER_CHILD = ['build_ab', 'compute_h', 'msm_a', 'msm_b1', 'msm_b2', 'msm_c', 'msm_h', 'assemble', 'VERIFY'];
const SYNTH_CHILD = ['porep_witness', 'porep_synthesize', 'porep_check',
  'snap_witness', 'snap_synthesize', 'snap_check'];
const CHILD = PROVER_CHILD.concat(SYNTH_CHILD);
const PARENT = (s) => (SYNTH_CHILD.includes(s) ? 'SYNTH' : 'GPU');
const COLOUR = {
  QUEUED: '#4b5263', SYNTH: '#4d94e0', CHAN_SEND: '#a07be0', XFER: '#e39b3b', GPU_PICKUP: '#a8a15a',
  GPU: '#3dbd7d', build_ab: '#2f8f6a', compute_h: '#5fd39b', msm_a: '#1f9e89', msm_b1: '#27b0a0',
  msm_b2: '#35c2b5', msm_c: '#58d2c8', msm_h: '#8fe3d0', assemble: '#b5e8a1', VERIFY: '#e6e27a',
  porep_witness: '#2c6bb0', porep_synthesize: '#7fb6f0', porep_check: '#b9d7f7', DONE: '#f2f4f8',
  snap_witness: '#6a4bb0', snap_synthesize: '#a58bf0', snap_check: '#d0c2f7',
  CANCELLED: '#e05252', WIRE_PACKED: '#e39b3b', WIRE_FULL: '#e39b3b',
};
const STAGE_ROLE = {
  QUEUED: 'scheduler', DONE: 'scheduler', WIRE_PACKED: 'scheduler', WIRE_FULL: 'scheduler',
  SYNTH: 'synth', GPU: 'prover',
};
// The prover's stages name what they ran on: the node's backend ("cpu" or "cuda (<device>)",
// /v1/nodes), so a CPU prover's bars never say GPU.
function stageTitle(stage, nodeName) {
  if (stage !== 'GPU' && stage !== 'GPU_PICKUP') return stage;
  const n = S.nodes.find((x) => x.name === nodeName);
  if (!n || !n.backend) return stage === 'GPU' ? 'PROVE' : 'PROVER_PICKUP';
  const kind = String(n.backend).startsWith('cuda') ? 'GPU' : 'CPU';
  return stage === 'GPU' ? kind : `${kind}_PICKUP`;
}
const LABEL = {
  QUEUED: 'queued', SYNTH: 'synthesis', CHAN_SEND: 'send', XFER: 'transfer', GPU_PICKUP: 'prover queue',
  GPU: 'prove', VERIFY: 'verify', DONE: 'done', porep_witness: 'PoRep witness',
  porep_synthesize: 'PoRep synthesis', porep_check: 'PoRep check', CANCELLED: 'cancelled (work stopped)',
  snap_witness: 'SnapDeals witness', snap_synthesize: 'SnapDeals synthesis', snap_check: 'SnapDeals check',
  WIRE_PACKED: 'wire: packed (wire: auto chose it)', WIRE_FULL: 'wire: full (wire: auto chose it)',
};

const WINDOW_NS = 120e9;        // the live view: the last 2 minutes
const KEEP_NS = 10 * 60e9;      // events older than this (behind now) are forgotten ...
const MAX_EVENTS = 200000;      // ... and the oldest beyond this many
const MAX_ROWS = 300;           // rows drawn at most (the most recent)

// ---- state ----------------------------------------------------------------------------------
const S = {
  nodes: [], jobs: [], stats: null,
  tl: { nodes: {}, tracks: {}, events: new Map(), nowNs: null, nowAt: 0, dirty: true, fresh: false },
  intervals: [], marks: [],      // derived from tl.events
  view: { live: true, span: 0, end: 0 },  // span 0: fit the recent activity
};

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function bytes(n) {
  if (!n) return '0';
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) n /= 1024, i++;
  return `${n >= 100 || i === 0 ? n.toFixed(0) : n.toFixed(1)} ${u[i]}`;
}
function dur(ns) {
  const s = ns / 1e9;
  if (s >= 100) return `${s.toFixed(0)} s`;
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(1)} ms`;
  return `${(s * 1e6).toFixed(0)} µs`;
}
function ago(ms) {
  const s = Math.max(0, ms / 1000);
  if (s < 60) return `${s.toFixed(0)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
}
const pct = (f) => `${(100 * (f || 0)).toFixed(0)}%`;

// The aggregator's clock now: the last message's now_ns moved on by the time since it came.
function nowNs() {
  if (S.tl.nowNs === null) return 0;
  return S.tl.nowNs + (performance.now() - S.tl.nowAt) * 1e6;
}

// ---- the event stream: fetch + a ReadableStream SSE parser (EventSource cannot send a header)
const TOKEN_KEY = 'zkfleet.token';
let attempts = 0;

function setConn(state, text) {
  const c = $('conn');
  c.dataset.state = state;
  c.textContent = text;
}

async function askToken(refused) {
  const d = $('auth');
  d.querySelector('p').textContent = refused
    ? 'The scheduler refused that token. Another one (zkfleet certs create-token NAME):'
    : 'The scheduler asks for a token (zkfleet certs create-token NAME):';
  setConn('auth', 'token needed');
  $('auth-token').value = '';
  d.showModal();
  await new Promise((ok) => d.addEventListener('close', ok, { once: true }));
  const t = $('auth-token').value.trim();
  if (t) sessionStorage.setItem(TOKEN_KEY, t);
}

// Calls onMessage(event, data) for each message of the stream until it ends.
async function readSSE(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '', scan = 0, ev = '', data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    for (;;) {
      let i = scan;
      while (i < buf.length && buf[i] !== '\n' && buf[i] !== '\r') i++;
      if (i >= buf.length) { scan = i; break; }
      if (buf[i] === '\r' && i + 1 >= buf.length) { scan = i; break; }  // maybe \r\n split
      const line = buf.slice(0, i);
      buf = buf.slice(i + (buf[i] === '\r' && buf[i + 1] === '\n' ? 2 : 1));
      scan = 0;
      if (line === '') {
        if (data.length) onMessage(ev || 'message', data.join('\n'));
        ev = '';
        data = [];
      } else if (line[0] !== ':') {
        const c = line.indexOf(':');
        const field = c < 0 ? line : line.slice(0, c);
        let v = c < 0 ? '' : line.slice(c + 1);
        if (v[0] === ' ') v = v.slice(1);
        if (field === 'event') ev = v;
        else if (field === 'data') data.push(v);
      }
    }
  }
}

function onMessage(ev, text) {
  let m;
  try { m = JSON.parse(text); } catch (e) { console.warn('bad message', ev, e); return; }
  attempts = 0;
  if (ev === 'nodes') S.nodes = m.nodes || [], renderNodes();
  else if (ev === 'jobs') S.jobs = m.jobs || [], renderJobs(), schedule();
  else if (ev === 'stats') S.stats = m, renderStats(), renderNodes();
  else if (ev === 'timeline') mergeTimeline(m), renderNodes(), schedule();
}

async function follow() {
  let refused = false;
  for (;;) {
    const ctl = new AbortController();
    let watchdog = 0;
    try {
      setConn('connecting', attempts ? 'reconnecting…' : 'connecting…');
      const headers = { Accept: 'text/event-stream' };
      const token = sessionStorage.getItem(TOKEN_KEY);
      if (token) headers.Authorization = `Bearer ${token}`;
      const res = await fetch('v1/events', { headers, cache: 'no-store', signal: ctl.signal });
      if (res.status === 401) {
        if (token) sessionStorage.removeItem(TOKEN_KEY);
        await askToken(refused || !!token);
        refused = true;
        continue;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      refused = false;
      setConn('live', 'live');
      S.tl.fresh = true;  // this stream's first timeline message holds every event: start over
      // One message a second is promised: ten silent seconds mean a dead connection.
      let last = performance.now();
      watchdog = setInterval(() => {
        if (performance.now() - last > 10000) ctl.abort(new Error('no message for 10 s'));
      }, 1000);
      await readSSE(res.body, (ev, data) => { last = performance.now(); onMessage(ev, data); });
      throw new Error('the stream ended');
    } catch (e) {
      clearInterval(watchdog);
      ctl.abort();
      attempts++;
      const wait = Math.min(30, 2 ** Math.min(attempts - 1, 5)) * (0.75 + Math.random() / 2);
      setConn('down', `disconnected (${e.message || e}); again in ${wait.toFixed(0)} s`);
      await new Promise((ok) => setTimeout(ok, wait * 1000));
    } finally {
      clearInterval(watchdog);
    }
  }
}

// ---- the timeline: events kept by identity, paired into intervals ---------------------------
function mergeTimeline(m) {
  const tl = S.tl;
  if (tl.fresh) tl.events.clear(), tl.nodes = {}, tl.tracks = {}, tl.fresh = false;
  if (m.nodes) Object.assign(tl.nodes, m.nodes);
  for (const t of m.tracks || []) tl.tracks[`${t.node}/${t.track}`] = t.name;
  for (const e of m.events || []) {
    const k = `${e.job}|${e.partition}|${e.stage}|${e.phase}|${e.node}|${e.track}|${e.t_ns}`;
    tl.events.set(k, e);
  }
  if (typeof m.now_ns === 'number') tl.nowNs = m.now_ns, tl.nowAt = performance.now();
  const old = nowNs() - KEEP_NS;
  for (const [k, e] of tl.events) if (e.t_ns < old) tl.events.delete(k);
  tl.dirty = true;
}

// Begin/end pairs (same job, partition, stage, node, track) make an interval; an unmatched begin
// runs to now (open); instants (DONE) are marks. As common/timeline/render.cpp pair_intervals.
// k: the row (job/partition); rank: the stage's place among the top-level ones (-1: a child).
function interval(b, t1, bytes) {
  return { e: b, k: `${b.job}/${b.partition}`, rank: TOP.indexOf(b.stage), t0: b.t_ns, t1, bytes, open: t1 === null };
}

function derive() {
  const tl = S.tl;
  if (!tl.dirty) return;
  tl.dirty = false;
  let evs = [...tl.events.entries()].sort((a, b) => a[1].t_ns - b[1].t_ns);
  if (evs.length > MAX_EVENTS) {  // a busy farm: the oldest go first
    for (const [k] of evs.slice(0, evs.length - MAX_EVENTS)) tl.events.delete(k);
    evs = evs.slice(evs.length - MAX_EVENTS);
  }
  evs = evs.map((kv) => kv[1]);
  const open = new Map();
  const iv = [], marks = [];
  const roles = new Map();  // node name → the roles its events show (for nodes /v1/nodes omits)
  for (const e of evs) {
    const role = STAGE_ROLE[e.stage];
    if (role) {
      const name = tl.nodes[String(e.node)] || `node ${e.node}`;
      if (!roles.has(name)) roles.set(name, new Set());
      roles.get(name).add(role);
    }
    const k = `${e.job}|${e.partition}|${e.stage}|${e.node}|${e.track}`;
    if (e.phase === 'begin') open.set(k, e);
    else if (e.phase === 'end') {
      const b = open.get(k);
      if (!b) continue;
      open.delete(k);
      iv.push(interval(b, e.t_ns, Math.max(b.bytes || 0, e.bytes || 0)));
    } else marks.push({ e, k: `${e.job}/${e.partition}`, t0: e.t_ns, t1: e.t_ns, mark: true });
  }
  for (const b of open.values()) iv.push(interval(b, null, b.bytes || 0));
  S.intervals = iv;
  S.tlRoles = roles;
  // Drawing order: top-level stages in stage order (later ones on top), then the prover's.
  S.top = iv.filter((i) => i.rank >= 0).sort((a, b) => a.rank - b.rank);
  S.children = iv.filter((i) => i.rank < 0 && CHILD.includes(i.e.stage));
  S.marks = marks;
}

// ---- header figures, verdict and its evidence -----------------------------------------------
function renderStats() {
  const s = S.stats || {};
  $('ppm').textContent = s.proofs_per_minute != null ? s.proofs_per_minute.toFixed(1) : '–';
  $('proofs').textContent = s.proofs != null ? s.proofs : '–';
  $('bottleneck').textContent = s.verdict || 'No verdict yet: no stage has finished in the timeline.';
  $('bottleneck').dataset.bottleneck = s.bottleneck || '';
  const b = s.busy || {};
  const row = (name, f, key) => `<div class="ev${s.bottleneck === key ? ' hot' : ''}">
      <span class="k">${name}</span><span class="meter"><i style="width:${Math.min(100, 100 * (f || 0))}%"></i></span>
      <span class="v">${pct(f)}</span></div>`;
  const q = s.queue_depth || {};
  $('evidence').innerHTML = s.verdict ? `
    ${row('synthesis busy', b.synthesis, 'synthesis')}
    ${row('transfer busy', b.transfer, 'transfer')}
    ${row('prover busy', b.prover, 'prover')}
    <div class="facts"><span>prover idle per proof <b>${dur((s.prover_idle_per_proof_s || 0) * 1e9)}</b></span>
      <span>queue depth mean <b>${(q.mean || 0).toFixed(1)}</b> max <b>${q.max || 0}</b></span>
      <span>over <b>${dur((s.span_s || 0) * 1e9)}</b> of timeline</span></div>` : '';
}

// Busy fraction of a node: its tracks in the stats ("node/track"), transfer tracks apart.
function nodeBusy(name) {
  const ts = ((S.stats && S.stats.tracks) || []).filter((t) => t.name.startsWith(`${name}/`));
  const work = ts.filter((t) => t.role !== 'transfer');
  const use = work.length ? work : ts;
  if (!use.length) return null;
  return {
    busy: use.reduce((a, t) => a + t.busy, 0) / use.length,
    detail: ts.map((t) => `${t.name.slice(name.length + 1)} (${t.role}): ${pct(t.busy)}`).join('\n'),
  };
}

// Nodes grouped by role (scheduler, synthesis, provers), then by name (synth-2 before synth-10).
const ROLE_ORDER = ['scheduler', 'synth', 'prover'];
function nodeOrder(a, b) {
  const rank = (role) => { const k = ROLE_ORDER.indexOf(role); return k < 0 ? 3 : k; };
  const r = (n) => Math.min(3, ...(n.roles || []).map(rank));
  return r(a) - r(b) || a.name.localeCompare(b.name, undefined, { numeric: true });
}

// The nodes of /v1/nodes, and any other node the timeline names (the scheduler node: /v1/nodes
// lists the nodes that synthesize or prove), with the roles its events show.
function renderNodes() {
  derive();
  const listed = new Set(S.nodes.map((n) => n.name));
  const seen = [...(S.tlRoles || new Map())].filter(([name]) => !listed.has(name))
    .map(([name, roles]) => ({ name, roles: [...roles], timelineOnly: true }));
  const rows = [...S.nodes, ...seen].sort(nodeOrder).map((n) => {
    if (n.timelineOnly) return nodeSeen(n);
    const budget = n.budget_bytes || 0;
    const w = (x) => (budget ? Math.min(100, (100 * x) / budget) : 0);
    const busy = nodeBusy(n.name);
    return `<tr data-node="${esc(n.name)}" class="${n.alive === false ? 'lost' : ''}">
      <td class="name"><span class="dot ${n.alive === false ? 'off' : 'on'}" title="${n.alive === false ? 'lost' : 'alive'}"></span>${esc(n.name)}</td>
      <td>${(n.roles || []).map((r) => `<span class="chip ${esc(r)}">${esc(r)}</span>`).join('')}</td>
      <td>${esc(n.backend || '–')}</td>
      <td class="mem" title="reserved ${bytes(n.reserved_bytes)}, peak ${bytes(n.peak_bytes)}, budget ${bytes(budget)}">
        ${budget ? `<span class="membar"><i style="width:${w(n.reserved_bytes)}%"></i><b style="left:${w(n.peak_bytes)}%"></b></span>` : ''}
        <span class="memtxt">${budget || n.peak_bytes ? `${bytes(n.reserved_bytes)} / ${bytes(n.peak_bytes)} / ${budget ? bytes(budget) : '–'}` : '–'}</span></td>
      <td class="num">${n.synthesizing ?? ''}</td><td class="num">${n.pipeline ?? ''}</td>
      <td class="num" title="${busy ? esc(busy.detail) : 'no busy time in the timeline yet'}">${busy ? pct(busy.busy) : '–'}</td></tr>`;
  });
  $('nodes').tBodies[0].innerHTML = rows.join('') ||
    '<tr><td colspan="7" class="empty">no node has joined</td></tr>';
  $('nodes-count').textContent = `${S.nodes.filter((n) => n.alive !== false).length}/${S.nodes.length}`;
}

function nodeSeen(n) {
  const busy = nodeBusy(n.name);
  return `<tr data-node="${esc(n.name)}" title="from the timeline: not in /v1/nodes">
      <td class="name"><span class="dot seen"></span>${esc(n.name)}</td>
      <td>${n.roles.map((r) => `<span class="chip ${esc(r)}">${esc(r)}</span>`).join('')}</td>
      <td>–</td><td class="mem"><span class="memtxt">–</span></td><td class="num"></td><td class="num"></td>
      <td class="num" title="${busy ? esc(busy.detail) : ''}">${busy ? pct(busy.busy) : '–'}</td></tr>`;
}

// Partitions of each job seen in the timeline (the job list carries no partition count).
function partitionsSeen() {
  const m = new Map();
  for (const i of S.intervals) if (i.e.stage === 'QUEUED') {
    const s = m.get(i.e.job) || new Set();
    s.add(i.e.partition);
    m.set(i.e.job, s);
  }
  return m;
}

function renderJobs() {
  derive();
  const seen = partitionsSeen();
  const now = Date.now();
  const rows = S.jobs.map((j) => {
    const n = seen.get(j.seq);
    const note = j.error || j.waiting || '';
    return `<tr data-seq="${j.seq}" data-state="${esc(j.state)}">
      <td class="num">${j.seq}</td><td class="id" title="${esc(j.id)}">${esc(j.request_id || String(j.id).slice(0, 8))}</td>
      <td>${esc(j.owner || '')}</td><td>${esc(j.circuit)}</td><td>${esc(j.priority || '')}</td>
      <td><span class="state ${esc(j.state)}">${esc(j.state)}</span>${note ? `<div class="note">${esc(note)}</div>` : ''}</td>
      <td class="num">${j.done}${n ? `/${n.size}` : ''}${j.failed ? ` <span class="bad">${j.failed} failed</span>` : ''}</td>
      <td class="num">${j.submitted_ms ? ago(now - j.submitted_ms) : ''}</td></tr>`;
  });
  $('jobs').tBodies[0].innerHTML = rows.join('') || '<tr><td colspan="8" class="empty">no job yet</td></tr>';
  const active = S.jobs.filter((j) => j.state === 'queued' || j.state === 'running').length;
  $('jobs-count').textContent = `${active} active, ${S.jobs.length} listed`;
  document.title = active ? `zkfleet · ${active} active` : 'zkfleet';
}

// ---- the waterfall --------------------------------------------------------------------------
const ROW = 16, LEFT = 132, RIGHT = 12;
let frame = 0;
function schedule() { if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); }); }

// Live: the window ends now and reaches back over the recent activity, at most the last 2
// minutes, at least 5 s (or the span the wheel chose); otherwise the window zoom and pan left.
function viewRange() {
  const v = S.view;
  if (!v.live) return [v.end - v.span, v.end];
  const now = nowNs();
  if (v.span) return [now - v.span, now];
  let first = now;
  for (const i of S.intervals) if ((i.open || i.t1 >= now - WINDOW_NS) && i.t0 < first) first = i.t0;
  const span = Math.min(WINDOW_NS, Math.max(5e9, (now - first) * 1.04));
  return [now - span, now];
}

function niceStep(spanNs, px) {
  const target = (spanNs * 90) / Math.max(px, 1);  // a label every ~90 px
  const steps = [1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8, 1e9, 2e9, 5e9, 1e10, 2e10, 3e10, 6e10, 12e10, 3e11, 6e11];
  return steps.find((s) => s >= target) || 6e11;
}
function axisLabel(ns) {
  const s = ns / 1e9;
  if (Math.abs(s) < 1e-9) return 'now';
  const a = Math.abs(s);
  const t = a >= 60 ? `${Math.floor(a / 60)}m${a % 60 ? `${String(Math.round(a % 60)).padStart(2, '0')}` : ''}`
    : a >= 1 ? `${+a.toFixed(1)}s` : `${+(a * 1e3).toFixed(0)}ms`;
  return (s < 0 ? '−' : '+') + t;
}

function render() {
  derive();
  renderHeaderLive();
  const svg = $('waterfall'), box = $('wf-box');
  const width = Math.max(400, box.clientWidth);
  const [t0, t1] = viewRange();
  S.drawnRange = [t0, t1];  // what the reader sees: the wheel and a drag start from it
  const now = nowNs();
  const plotW = width - LEFT - RIGHT;
  const x = (t) => LEFT + ((t - t0) / (t1 - t0)) * plotW;

  // Rows: every job/partition with something in view, in order of first appearance.
  const rows = new Map();
  const add = (i) => {
    const b = i.open ? now : i.t1;
    if (b < t0 || i.t0 > t1) return;
    const r = rows.get(i.k);
    if (!r) rows.set(i.k, { job: i.e.job, partition: i.e.partition, first: i.t0 });
    else if (i.t0 < r.first) r.first = i.t0;
  };
  for (const i of S.intervals) add(i);
  for (const m of S.marks) add(m);
  let order = [...rows.values()].sort((a, b) => a.first - b.first || a.job - b.job || a.partition - b.partition);
  const hidden = Math.max(0, order.length - MAX_ROWS);
  if (hidden) order = order.slice(hidden);
  order.forEach((r, n) => { r.y = n * ROW; });
  const height = Math.max(order.length, 1) * ROW + 2;

  // The axis (its own SVG, above the scrolling rows), labelled relative to now, and the grid.
  const axis = [], out = [];
  const step = niceStep(t1 - t0, plotW);
  for (let t = Math.ceil((t0 - now) / step) * step + now; t <= t1; t += step) {
    const gx = x(t).toFixed(1);
    axis.push(`<line class="grid" x1="${gx}" x2="${gx}" y1="17" y2="22"/><text class="tick" x="${gx}" y="13">${axisLabel(t - now)}</text>`);
    out.push(`<line class="grid" x1="${gx}" x2="${gx}" y1="0" y2="${height}"/>`);
  }
  axis.push(`<line class="grid" x1="${LEFT}" x2="${width - RIGHT}" y1="21.5" y2="21.5"/>`);
  $('axis').setAttribute('width', width);
  $('axis').innerHTML = axis.join('');
  $('wf-note').textContent = `${S.view.live ? 'the last' : 'a window of'} ${dur(t1 - t0)}, ${order.length} rows`
    + (hidden ? ` (${hidden} older not drawn)` : '');

  // Row labels, zebra.
  // A job submitted with a request id (Curio's porep-<miner>-<sector>) is named by it.
  const circuit = new Map(S.jobs.map((j) => [j.seq, j.request_id ? `${j.request_id} ${j.circuit}` : j.circuit]));
  order.forEach((r, n) => {
    if (n % 2) out.push(`<rect class="zebra" x="0" y="${r.y}" width="${width}" height="${ROW}"/>`);
    const c = circuit.get(r.job);
    out.push(`<text class="row" x="6" y="${r.y + 12}">#${r.job} p${r.partition}${c ? ` <tspan class="circ">${esc(c)}</tspan>` : ''}</text>`);
  });
  if (now >= t0 && now <= t1) out.push(`<line class="now" x1="${x(now).toFixed(1)}" x2="${x(now).toFixed(1)}" y1="0" y2="${height}"/>`);
  out.push(`<g clip-path="url(#plot-clip)">`);
  // Bars: top-level stages on the row (in stage order: later stages on top), GPU's children as
  // a strip beneath. Every bar: data-job (the job's seq), data-partition, data-stage.
  const drawn = [];
  const bar = (i, y, h, cls) => {
    const r = rows.get(i.k);
    if (!r || r.y === undefined) return;
    const b = i.open ? now : i.t1;
    if (b < t0 || i.t0 > t1) return;
    const xa = Math.max(x(i.t0), LEFT - 1), xb = Math.min(x(b), width - RIGHT + 1);
    drawn.push(i);
    out.push(`<rect class="bar${cls}${i.open ? ' open' : ''}" data-i="${drawn.length - 1}" data-job="${i.e.job}" data-partition="${i.e.partition}" data-stage="${i.e.stage}"`
      + ` x="${xa.toFixed(1)}" y="${r.y + y}" width="${Math.max(1, xb - xa).toFixed(1)}" height="${h}" fill="${COLOUR[i.e.stage] || '#888'}"/>`);
  };
  for (const i of S.top) bar(i, 2, 10, '');
  // The children only where they can be told apart (their GPU or SYNTH bar at least 24 px wide).
  const pxPerNs = plotW / (t1 - t0);
  const wide = new Set(S.top.filter((i) => (i.e.stage === 'GPU' || i.e.stage === 'SYNTH')
    && ((i.open ? now : i.t1) - i.t0) * pxPerNs >= 24)
    .map((i) => `${i.k}/${i.e.node}/${i.e.stage}`));
  for (const i of S.children) if (wide.has(`${i.k}/${i.e.node}/${PARENT(i.e.stage)}`)) bar(i, 12, 3, ' child');
  for (const m of S.marks) {
    const r = rows.get(m.k);
    if (!r || r.y === undefined || m.t0 < t0 || m.t0 > t1) continue;
    const mx = x(m.t0).toFixed(1);
    drawn.push(m);
    out.push(`<path class="mark" data-i="${drawn.length - 1}" data-job="${m.e.job}" data-partition="${m.e.partition}" data-stage="${m.e.stage}" d="M${mx} ${r.y + 1}l4 6.5l-4 6.5l-4 -6.5z"/>`);
  }
  out.push('</g>');
  out.push(`<line class="edge" x1="${LEFT - 0.5}" x2="${LEFT - 0.5}" y1="0" y2="${height}"/>`);
  if (!order.length) out.push(`<text class="empty" x="${LEFT + 8}" y="12">nothing in this window${S.tl.nowNs === null ? ' (waiting for the timeline)' : ''}</text>`);

  // Following the newest rows (at the bottom) unless the reader scrolled up.
  const pinned = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.innerHTML = `<defs><clipPath id="plot-clip"><rect x="${LEFT}" y="0" width="${plotW}" height="${height}"/></clipPath></defs>${out.join('')}`;
  if (pinned) box.scrollTop = box.scrollHeight;
  S.drawn = drawn;
  $('live').setAttribute('aria-pressed', String(S.view.live));
}

// Throughput over the last 2 minutes (DONE marks per 10 s) and the queue now (open QUEUED).
function renderHeaderLive() {
  const now = nowNs();
  const n = 12, w = 10e9;
  const buckets = new Array(n).fill(0);
  for (const m of S.marks) {
    if (m.e.stage !== 'DONE') continue;
    const k = Math.floor((now - m.t0) / w);
    if (k >= 0 && k < n) buckets[n - 1 - k]++;
  }
  const max = Math.max(1, ...buckets);
  const sp = $('spark');
  sp.innerHTML = buckets.map((b, i) => {
    const h = Math.max(b ? 2 : 0.5, (34 * b) / max);
    return `<rect x="${i * 15}" y="${38 - h}" width="12" height="${h}"><title>${b} proofs, ${(n - i) * 10}–${(n - i - 1) * 10} s ago</title></rect>`;
  }).join('');
  $('queue').textContent = S.tl.nowNs === null ? '–'
    : S.intervals.filter((i) => i.open && i.e.stage === 'QUEUED').length;
}

// ---- zoom, pan, hover -----------------------------------------------------------------------
function setView(t0, t1) {
  const now = nowNs();
  const span = Math.min(Math.max(t1 - t0, 20e6), KEEP_NS);
  if (t0 + span >= now) S.view = { live: true, span, end: 0 };  // reaching now: follow it
  else S.view = { live: false, span, end: t0 + span };
  schedule();
}

function plotX(ev) {
  const r = $('waterfall').getBoundingClientRect();
  return (ev.clientX - r.left - LEFT) / (r.width - LEFT - RIGHT);
}

function setupWaterfall() {
  const svg = $('waterfall');
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [t0, t1] = S.drawnRange || viewRange();  // the drawn window, not one moved on since
    const f = Math.min(Math.max(plotX(ev), 0), 1);
    const at = t0 + f * (t1 - t0);
    const span = (t1 - t0) * Math.exp(ev.deltaY * 0.0015);
    setView(at - f * span, at - f * span + span);
  }, { passive: false });
  let drag = null;
  svg.addEventListener('mousedown', (ev) => {
    if (ev.button !== 0) return;
    const [t0, t1] = S.drawnRange || viewRange();
    drag = { x: ev.clientX, t0, t1 };
    svg.classList.add('dragging');
    ev.preventDefault();
  });
  window.addEventListener('mousemove', (ev) => {
    if (!drag) return;
    const w = svg.getBoundingClientRect().width - LEFT - RIGHT;
    const dt = ((ev.clientX - drag.x) / w) * (drag.t1 - drag.t0);
    if (Math.abs(ev.clientX - drag.x) > 2) setView(drag.t0 - dt, drag.t1 - dt);
  });
  window.addEventListener('mouseup', () => { drag = null; svg.classList.remove('dragging'); });
  svg.addEventListener('dblclick', () => { S.view = { live: true, span: 0, end: 0 }; schedule(); });
  $('live').addEventListener('click', () => { S.view = { live: true, span: 0, end: 0 }; schedule(); });

  const tip = $('tip');
  svg.addEventListener('mousemove', (ev) => {
    const el = ev.target.closest && ev.target.closest('[data-i]');
    const i = el && S.drawn && S.drawn[+el.dataset.i];
    if (!i || drag) { tip.hidden = true; return; }
    const e = i.e;
    const node = S.tl.nodes[String(e.node)] || `node ${e.node}`;
    const track = S.tl.tracks[`${e.node}/${e.track}`];
    const c = S.jobs.find((j) => j.seq === e.job);
    const lenNs = (i.open ? nowNs() : i.t1) - i.t0;
    tip.innerHTML = `<div class="tt"><i style="background:${COLOUR[e.stage] || '#888'}"></i><b>${esc(stageTitle(e.stage, node))}</b>`
      + `${LABEL[e.stage] ? ` <span>${LABEL[e.stage]}</span>` : ''}</div>`
      + `<div>job #${e.job}${c ? ` (${c.request_id ? `${esc(c.request_id)}, ` : ''}${esc(c.circuit)})` : ''}, partition ${e.partition}</div>`
      + `<div>node <b>${esc(node)}</b>${track ? ` · ${esc(track)}` : ''}</div>`
      + (i.mark ? `<div>at ${axisLabel(e.t_ns - nowNs())}</div>`
        : `<div>duration <b>${dur(lenNs)}</b>${i.open ? ' (running)' : ''}</div>`)
      + (i.bytes ? `<div>${bytes(i.bytes)}</div>` : '');
    tip.hidden = false;
    const box = tip.parentElement.getBoundingClientRect();
    let left = ev.clientX - box.left + 14;
    if (left + tip.offsetWidth > box.width) left = ev.clientX - box.left - tip.offsetWidth - 14;
    tip.style.left = `${left}px`;
    let top = ev.clientY - box.top + 14;
    if (top + tip.offsetHeight > box.height) top = ev.clientY - box.top - tip.offsetHeight - 10;
    tip.style.top = `${top}px`;
  });
  svg.addEventListener('mouseleave', () => { tip.hidden = true; });
}

function renderLegend() {
  const sw = (s, cls) => `<span class="sw${cls}"><i style="background:${COLOUR[s]}"></i>${LABEL[s] || s}</span>`;
  $('legend').innerHTML = TOP.map((s) => sw(s, '')).join('')
    + '<span class="sep">prover stages:</span>' + PROVER_CHILD.map((s) => sw(s, ' small')).join('')
    + '<span class="sep">PoRep synthesis:</span>' + SYNTH_CHILD.map((s) => sw(s, ' small')).join('')
    + '<span class="sw"><svg width="10" height="12"><path d="M5 0l4 6l-4 6l-4 -6z" fill="#f2f4f8"/></svg>done</span>';
}

renderLegend();
setupWaterfall();
renderStats();
renderNodes();
renderJobs();
window.addEventListener('resize', schedule);
// Live: running bars grow and the window slides between messages; ages tick.
setInterval(() => { if (S.view.live && !document.hidden) schedule(); }, 1000);
setInterval(renderJobs, 5000);
follow();
