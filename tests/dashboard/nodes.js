// The dashboard's node table and its NODES count, read in headless chromium (puppeteer-core, as
// tests/dashboard/dashboard.js drives it): the page is loaded, given until the table holds rows
// and has not changed for a second, then its rows and count are printed as one JSON line:
//
//   node tests/dashboard/nodes.js '{"url": …, "chromium": …, "puppeteer": …, "timeout_s": N}'
//   → {"nodes": ["gpu-1", …], "count": "3/3", "lost": ["…"], "errors": []}
//
// Exit status 1 (and the reason on stderr) when the page does not fill in time.
'use strict';
const spec = JSON.parse(process.argv[2]);
const puppeteer = require(spec.puppeteer || 'puppeteer-core');
const T = (spec.timeout_s || 60) * 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const browser = await puppeteer.launch({
    executablePath: spec.chromium, headless: true, timeout: 30000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    await page.goto(spec.url, { waitUntil: 'load', timeout: T });
    const read = () => page.evaluate(() => ({
      nodes: [...document.querySelectorAll('#nodes [data-node]')].map((r) => r.dataset.node),
      lost: [...document.querySelectorAll('#nodes tr.lost[data-node]')].map((r) => r.dataset.node),
      count: (document.getElementById('nodes-count') || {}).textContent || '',
    }));
    let last = '', since = Date.now(), seen = null;
    for (const end = Date.now() + T; Date.now() < end; await sleep(200)) {
      seen = await read();
      const now = JSON.stringify(seen);
      if (now !== last) last = now, since = Date.now();
      else if (seen.nodes.length > 0 && seen.count && Date.now() - since >= 1000) break;
    }
    if (!seen || seen.nodes.length === 0) throw new Error(`the node table stayed empty for ${T / 1000} s`);
    console.log(JSON.stringify({ ...seen, errors }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(`nodes.js: ${e.message}`); process.exit(1); });
