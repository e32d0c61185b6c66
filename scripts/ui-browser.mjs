// Drives the memory viewer in headless Chromium (run by scripts/ui-browser-test, which
// starts `subcog ui` on a scratch store). Arguments: the viewer's URL (with its token) and
// the directory for screenshots. Prints one JSON line: the id of the memory it edited.
// Fails on a page error, a console error (a CSP violation is one), a dialog (hostile text
// that ran), or a request to any host but 127.0.0.1.
import { createRequire } from 'node:module';
import { strict as assert } from 'node:assert';

const require = createRequire(`${process.env.PLAYWRIGHT_DIR}/`);
const { chromium } = require('playwright-core');

const [url, shots] = process.argv.slice(2);
const origin = new URL(url).origin;
const problems = [];
const foreign = [];

let page;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // Chromium refuses its sandbox to root (the CI machine runs as root).
  args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.on('request', (req) => {
    const u = new URL(req.url());
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '127.0.0.1') foreign.push(req.url());
    if (u.protocol !== 'http:' && u.protocol !== 'data:' && u.protocol !== 'about:') foreign.push(req.url());
  });
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('dialog', async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });

  // Without the token: 401, the page and the API alike (on a page of its own: the browser
  // logs the refusal as an error).
  const other = await context.newPage();
  assert.equal((await other.goto(`${origin}/`)).status(), 401, 'the page without its token');
  await other.close();
  const api = await context.request.get(`${origin}/api/overview`);
  assert.equal(api.status(), 401, 'the API without the token');

  const opened = await page.goto(url);
  assert.equal(opened.status(), 200);
  assert.match(opened.headers()['content-security-policy'] || '', /default-src 'none'/);
  await page.waitForFunction(() => /memories/.test(document.getElementById('stats').textContent));

  // Search, with each result's explanation.
  await page.fill('input[name=q]', 'where do device readings go');
  await page.press('input[name=q]', 'Enter');
  await page.waitForSelector('.card .explain');
  const decision = page.locator('.card', { hasText: 'ScyllaDB' });
  const top = await page.$$eval('.card .title', (els) => els.slice(0, 3).map((e) => e.textContent));
  assert.ok(top.some((t) => /ScyllaDB/.test(t)), `the decision is among the first three: ${top}`);
  const chips = await decision.locator('.explain .chip').allTextContents();
  assert.ok(chips.some((c) => /^keywords #\d/.test(c)), `explained: ${chips}`);
  if (process.env.SUBCOG_EMBEDDING_MODEL_DIR) assert.ok(chips.some((c) => /^meaning #\d/.test(c)), `by meaning: ${chips}`);
  await page.screenshot({ path: `${shots}/ui-screenshots/search.png`, fullPage: true });

  // Hostile text is shown as text: no element, no script, no dialog.
  await page.fill('input[name=q]', 'hostile text');
  await page.press('input[name=q]', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.card .title')].some((a) => a.textContent.includes('<img src=x')));
  assert.equal(await page.$$eval('main img, main script', (els) => els.length), 0, 'memory text never becomes markup');

  // Open the decision and edit it in the page.
  await page.fill('input[name=q]', 'where do device readings go');
  await page.press('input[name=q]', 'Enter');
  await page.locator('.card .title', { hasText: 'ScyllaDB' }).click();
  await page.waitForSelector('h1');
  const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
  assert.match(id, /^[0-9A-Z]{26}$/);
  assert.match(await page.textContent('pre.content'), /append-only/);
  await page.screenshot({ path: `${shots}/ui-screenshots/memory.png`, fullPage: true });
  await page.click('button:text("Edit")');
  const edited = 'We store device readings in ScyllaDB 5, not PostgreSQL (edited in the viewer)';
  await page.fill('textarea[name=content]', edited);
  await page.fill('input[name=tags]', 'storage, viewer');
  await page.screenshot({ path: `${shots}/ui-screenshots/edit.png`, fullPage: true });
  await page.click('button:text("Save")');
  await page.waitForFunction((text) => document.querySelector('pre.content')?.textContent === text, edited);
  assert.match(await page.textContent('#toast'), /Saved/);
  await page.screenshot({ path: `${shots}/ui-screenshot.png`, fullPage: true });

  // The other screens answer and draw.
  for (const [view, ready] of [['browse', '.card'], ['graph', 'svg.graph, main p'], ['runs', 'details.run, main p'], ['tiers', 'svg.history']]) {
    await page.click(`nav a[data-view=${view}]`);
    await page.waitForSelector(ready);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${shots}/ui-screenshots/${view}.png`, fullPage: true });
  }

  // A node of the graph opens its memory: supersession, edges, the cluster's summary.
  await page.click('nav a[data-view=graph]');
  await page.locator('g.node-group circle').first().click();
  await page.waitForSelector('h1');
  assert.match(page.url(), /#\/memory\//);
  await page.screenshot({ path: `${shots}/ui-screenshots/graph-memory.png`, fullPage: true });

  assert.deepEqual(problems, [], 'no page error, console error or dialog');
  assert.deepEqual(foreign, [], 'no request to any host but 127.0.0.1');
  console.log(JSON.stringify({ edited: id, screenshots: shots }));
} catch (err) {
  // What the page showed and said when it went wrong.
  if (page) await page.screenshot({ path: `${shots}/ui-screenshots/failure.png`, fullPage: true }).catch(() => {});
  console.error(`failed at ${page?.url()}\n${problems.join('\n')}\nscreenshot: ${shots}/ui-screenshots/failure.png`);
  throw err;
} finally {
  await browser.close();
}
