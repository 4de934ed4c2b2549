// The dashboard in a real browser (puppeteer-core driving Debian's chromium, headless), against
// a running cluster; tests/dashboard/dashboard.sh starts the cluster and runs the jobs. The two
// talk through files in DIR:
//
//   this script                                        dashboard.sh
//   page 1 loaded, every node in its table → DIR/ready
//                                                       submits the jobs → DIR/submitted
//   page 2 loaded while they run; both pages follow
//   the run live (no reload) until every job is done
//   and every partition has its bars → DIR/live
//                                                       awaits the proofs → DIR/awaited
//   page 3 loaded fresh: nodes, bars, the verdict,
//   hover, zoom, pan; the screenshot
//
//   node dashboard.js '{"url": …, "chromium": …, "dir": …, "nodes": [names],
//                       "screenshot": path, "timeout_s": N}'
//
// DIR/submitted: {"jobs": [{"seq": N, "partitions": P}, …]}. Prints "ok: …" / "FAIL: …" lines; exit
// status 1 when a check failed or a wait ran out.
'use strict';
const fs = require('fs');
const path = require('path');

const spec = JSON.parse(process.argv[2]);
const puppeteer = require(spec.puppeteer || 'puppeteer-core');
const T = (spec.timeout_s || 90) * 1000;
let fails = 0;
const ok = (m) => console.log(`ok: ${m}`);
const bad = (m) => { console.log(`FAIL: ${m}`); fails++; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFile(name) {
  const f = path.join(spec.dir, name);
  for (const end = Date.now() + T; Date.now() < end; await sleep(100)) {
    if (fs.existsSync(f)) return fs.readFileSync(f, 'utf8');
  }
  throw new Error(`no ${name} from dashboard.sh within ${T / 1000} s`);
}

// Errors in the page (an exception, console.error) fail the test.
const errors = [];
async function open(browser, label) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${label}: console: ${m.text()}`); });
  await page.goto(spec.url, { waitUntil: 'load', timeout: T });
  return page;
}

// What the page shows now, read through the stable hooks only. The page is brought to the front
// first and given two frames: a page in a background tab draws nothing (requestAnimationFrame
// waits until it is visible), as in a browser a person uses.
async function snapshot(page) {
  await page.bringToFront();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => ({
    nodes: [...document.querySelectorAll('#nodes [data-node]')].map((r) => r.dataset.node),
    bars: [...document.querySelectorAll('[data-job][data-partition]')].map((b) =>
      `${b.dataset.job}/${b.dataset.partition}/${b.dataset.stage || ''}${b.classList.contains('open') ? '/open' : ''}`),
    jobs: Object.fromEntries([...document.querySelectorAll('#jobs tr[data-seq]')].map((r) => [r.dataset.seq, r.dataset.state])),
    bottleneck: (document.getElementById('bottleneck') || {}).textContent || '',
  }));
}

// Every job done in the job table; every partition with a synthesis bar, a prove bar and a
// DONE mark. Returns what is missing ('' when nothing is).
function missing(s, jobs) {
  const have = new Set(s.bars);
  const out = [];
  for (const j of jobs) {
    if (s.jobs[j.seq] !== 'done') out.push(`job #${j.seq} is ${s.jobs[j.seq] || 'not listed'}`);
    for (let p = 0; p < j.partitions; p++) {
      for (const st of ['SYNTH', 'GPU', 'DONE']) if (!have.has(`${j.seq}/${p}/${st}`)) out.push(`#${j.seq} p${p} ${st}`);
    }
  }
  return out.join(', ');
}

async function until(what, fn, ms = T) {
  let last = '';
  for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) {
    last = await fn();
    if (last === true || last === '') return true;
  }
  bad(`${what}: not within ${ms / 1000} s (${String(last).slice(0, 400)})`);
  return false;
}

async function checkNodes(page, label) {
  if (await until(`${label}: every node of the config in the node table`, async () => {
    const s = await snapshot(page);
    return spec.nodes.filter((n) => !s.nodes.includes(n)).map((n) => `${n} missing`).join(', ');
  }, 30000)) ok(`${label}: the node table has ${spec.nodes.join(', ')}`);
}

(async () => {
  const t0 = Date.now();
  const browser = await puppeteer.launch({
    executablePath: spec.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    timeout: 30000,
  });
  try {
    // 1. Before any job: the page fills from the stream.
    const p1 = await open(browser, 'page 1');
    // Every state page 1's DOM ever shows (job rows, running bars), recorded by the page itself
    // on each change: the run may be over between two of this script's looks.
    await p1.evaluate(() => {
      window.zkSeen = [];
      const rec = () => {
        for (const r of document.querySelectorAll('#jobs tr[data-seq]')) {
          if (r.dataset.state === 'running' || r.dataset.state === 'queued') window.zkSeen.push(`job #${r.dataset.seq} ${r.dataset.state}`);
        }
        for (const b of document.querySelectorAll('[data-job][data-partition].open')) window.zkSeen.push(`a running bar (${b.dataset.job}/${b.dataset.partition}/${b.dataset.stage})`);
        if (window.zkSeen.length > 1000) window.zkSeen.splice(1, window.zkSeen.length - 1);
      };
      new MutationObserver(rec).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await checkNodes(p1, 'page 1 (idle cluster)');
    fs.writeFileSync(path.join(spec.dir, 'ready'), '');

    // 2. The jobs run: page 2 loads now; both follow the stream without a reload.
    const jobs = JSON.parse(await waitFile('submitted')).jobs;
    const p2 = await open(browser, 'page 2');
    const first = await snapshot(p2);
    const running = jobs.filter((j) => first.jobs[j.seq] && first.jobs[j.seq] !== 'done').length;
    console.log(`     page 2 loaded ${((Date.now() - t0) / 1000).toFixed(1)} s in, ${running} of ${jobs.length} jobs unfinished in its first view`);
    // Page 1 must show the run in progress at some point: a running bar or an unfinished job.
    let sawRunning = '';
    const live = await until('pages 1 and 2 (live): every job done, every partition with SYNTH, GPU and DONE', async () => {
      const [a, b] = [await snapshot(p1), await snapshot(p2)];
      if (!sawRunning) {
        const seqs = new Set(jobs.map((j) => `#${j.seq} `));
        const seen = await p1.evaluate(() => window.zkSeen || []);
        sawRunning = seen.find((x) => [...seqs].some((q) => x.includes(q) || x.includes(`(${q.slice(1, -1)}/`))) || '';
      }
      const m = missing(a, jobs) || missing(b, jobs);
      return m;
    });
    if (live) ok(`pages 1 and 2 followed the run live: ${jobs.map((j) => `#${j.seq} (${j.partitions} partitions)`).join(', ')} done, every partition drawn`);
    if (sawRunning) ok(`page 1 showed the run in progress: ${sawRunning}`);
    else bad('page 1 never showed a job running or a running bar');
    await p1.close();
    await p2.close();
    fs.writeFileSync(path.join(spec.dir, 'live'), '');

    // 3. After the proofs came back: a fresh page.
    await waitFile('awaited');
    const p3 = await open(browser, 'page 3');
    await checkNodes(p3, 'page 3 (after the run)');
    if (await until('page 3: every partition of every job drawn', async () => missing(await snapshot(p3), jobs))) {
      const n = jobs.reduce((a, j) => a + j.partitions, 0);
      const s = await snapshot(p3);
      ok(`page 3: ${n} partitions of ${jobs.length} jobs, each with SYNTH, GPU and DONE (${s.bars.length} bars and marks carry data-job/data-partition)`);
      const seqs = new Set(jobs.map((j) => String(j.seq)));
      const stray = s.bars.filter((b) => !seqs.has(b.split('/')[0]));
      if (stray.length) bad(`bars of jobs not submitted: ${stray.slice(0, 5)}`);
    }
    // The verdict: the sentence of /v1/stats, as it is.
    await until('page 3: #bottleneck is the verdict of /v1/stats', async () => {
      const [s, st] = [await snapshot(p3), await p3.evaluate(() => fetch('v1/stats').then((r) => r.json()))];
      if (!/^(prover|synthesis|transfer|pipeline|demand)-bound: .{20,}/.test(s.bottleneck)) return `#bottleneck: '${s.bottleneck}'`;
      return s.bottleneck === st.verdict ? '' : `'${s.bottleneck}' vs '${st.verdict}'`;
    }, 15000) && ok(`#bottleneck: '${(await snapshot(p3)).bottleneck}'`);
    const figures = await p3.evaluate(() => ({
      ppm: document.getElementById('ppm').textContent,
      meters: document.querySelectorAll('#evidence .meter').length,
    }));
    if (+figures.ppm > 0 && figures.meters === 3) ok(`throughput ${figures.ppm} proofs/min; evidence: 3 busy meters`);
    else bad(`throughput '${figures.ppm}', ${figures.meters} busy meters`);

    // Zoom in by the wheel with the pointer at the start of a prove bar: the bar keeps its place
    // and widens (the window leaves "live"); hover it: stage, node and duration; drag: it moves
    // with the pointer; double-click: the live window again.
    const seq = jobs[0].seq;
    const sel = `rect[data-job="${seq}"][data-partition="0"][data-stage="GPU"]`;
    const geo = () => p3.$eval(sel, (r) => ({ x: +r.getAttribute('x'), w: +r.getAttribute('width'), box: r.getBoundingClientRect().toJSON() }));
    const pressed = () => p3.$eval('#live', (b) => b.getAttribute('aria-pressed'));
    await p3.$eval(sel, (r) => r.scrollIntoView({ block: 'center' }));  // rows follow the newest: bring it up
    await sleep(200);
    const g0 = await geo();
    await p3.mouse.move(g0.box.x + 0.5, g0.box.y + g0.box.height / 2);
    await p3.mouse.wheel({ deltaY: -600 });  // app.js: a factor of exp(-600 * 0.0015) = 0.41
    await sleep(300);
    const g1 = await geo();
    const ratio = g1.w / g0.w;
    if ((g0.w < 4 ? ratio > 1.2 : ratio > 2 && ratio < 3) && Math.abs(g1.x - g0.x) < 2 && (await pressed()) === 'false') {
      ok(`wheel zoom: job #${seq} partition 0's GPU bar from ${g0.w.toFixed(1)} to ${g1.w.toFixed(1)} px wide, in place; live off`);
    } else bad(`wheel zoom: GPU bar ${JSON.stringify([g0.x, g0.w])} → ${JSON.stringify([g1.x, g1.w])}, live ${await pressed()}`);
    for (let k = 0; k < 6 && (await geo()).w < 40; k++) await p3.mouse.wheel({ deltaY: -600 }), await sleep(200);
    // Hover: the pointer on the bar's middle (again, a pixel apart, while a loaded machine has not
    // drawn yet), up to 3 s.
    let g2 = await geo(), tip = '';
    for (let k = 0; k < 15 && !tip; k++) {
      g2 = await geo();
      await p3.mouse.move(g2.box.x + g2.box.width / 2 + (k % 2), g2.box.y + g2.box.height / 2);
      await sleep(200);
      tip = await p3.evaluate(() => { const t = document.getElementById('tip'); return t.hidden ? '' : t.innerText; });
    }
    if (/GPU/.test(tip) && /node prover-\d/.test(tip) && /duration \d/.test(tip) && new RegExp(`#${seq}\\b`).test(tip)) ok(`hover on that bar: ${tip.replace(/\s+/g, ' ')}`);
    else bad(`hover tooltip: '${tip}'`);
    // Drag along the bar's own row (the waterfall's top may be scrolled out of its box).
    const wf = await (await p3.$('#waterfall')).boundingBox();
    const y = g2.box.y + g2.box.height / 2;
    await p3.mouse.move(g2.box.x + 2, y);
    await p3.mouse.down();
    await p3.mouse.move(g2.box.x + 152, y, { steps: 5 });
    await p3.mouse.up();
    let g3 = await geo();
    for (let k = 0; k < 10 && Math.abs(g3.x - g2.x - 150) >= 3; k++) await sleep(200), g3 = await geo();
    if (Math.abs(g3.x - g2.x - 150) < 3) ok(`drag: the bar moved ${(g3.x - g2.x).toFixed(1)} px with a 150 px drag`);
    else bad(`drag: the bar moved ${g3.x - g2.x} px with a 150 px drag`);
    await p3.mouse.click(wf.x + wf.width / 2, y, { clickCount: 2 });
    await sleep(300);
    const g4 = await geo();
    if ((await pressed()) === 'true' && Math.abs(g4.w / g0.w - 1) < 0.35) ok(`double-click: the live window again (bar ${g4.w.toFixed(1)} px wide)`);
    else bad(`double-click: live ${await pressed()}, bar ${g4.w} px wide (was ${g0.w})`);

    // The screenshot: the whole page, a tooltip up on a prove bar of the last job.
    if (spec.screenshot) {
      const height = await p3.evaluate(() => document.documentElement.scrollHeight);
      await p3.setViewport({ width: 1440, height: Math.min(Math.max(height, 600), 2000) });
      await sleep(300);
      const last = jobs[jobs.length - 1];
      // The last visible prove bar of the last job (the live window may have moved on a little).
      let b5 = null;
      for (const el of (await p3.$$(`rect[data-job="${last.seq}"][data-stage="GPU"]`)).reverse()) {
        if ((b5 = await el.boundingBox())) break;
      }
      if (b5) {
        await p3.mouse.move(b5.x + b5.width / 2 - 1, b5.y + b5.height / 2);
        await p3.mouse.move(b5.x + b5.width / 2, b5.y + b5.height / 2);
        await sleep(200);
      }
      await p3.screenshot({ path: spec.screenshot });
      ok(`screenshot: ${spec.screenshot}`);
    }
    await p3.close();
    if (errors.length) bad(`errors in the page: ${errors.join('; ')}`);
    else ok('no error in any page');
  } finally {
    await browser.close();
  }
})().catch((e) => { bad(e.stack || String(e)); }).finally(() => process.exit(fails ? 1 : 0));
