// Drives code-server with headless chromium (playwright-core).
//   node drive.cjs exttest <baseUrl> <folder> <extensionDir> <testsModule> <resultJson>
//     loads the extension unpackaged and runs <testsModule> inside the extension host
//     (code-server needs --vscode-option enable-smoke-test-driver); waits for <resultJson>.
//   node drive.cjs shot <baseUrl> <folder> <file> <png> <resultJson> [<hoverPng>]
//     opens <file>, waits for squiggles, opens the quick-fix menu on the last one, saves <png>;
//     then hovers the FG101 squiggle and saves <hoverPng>.
// Env: CHROMIUM (default /usr/bin/chromium), E2E_TIMEOUT_MS (default 240000).
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const timeoutMs = Number(process.env.E2E_TIMEOUT_MS || 240000);
const t0 = Date.now();
const log = (...a) => console.log(`[drive ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens a fresh headless chromium profile; calls body(page); always closes it. */
async function withPage(url, body) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300)); });
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    return await body(page);
  } catch (e) {
    log('console errors:\n' + consoleErrors.slice(-20).join('\n'));
    throw e;
  } finally {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const folderUrl = (base, folder) => `${base}/?folder=${encodeURIComponent(path.resolve(folder))}`;

async function exttest(base, folder, extDir, testsModule, resultFile) {
  const remote = (p) => `vscode-remote://remote${path.resolve(p)}`;
  const payload = [['extensionDevelopmentPath', remote(extDir)], ['extensionTestsPath', remote(testsModule)]];
  fs.rmSync(resultFile, { force: true });
  await withPage(`${folderUrl(base, folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, async () => {
    while (!fs.existsSync(resultFile) && Date.now() - t0 < timeoutMs) await sleep(250);
  });
  if (!fs.existsSync(resultFile)) throw new Error(`no result in ${resultFile} after ${Date.now() - t0} ms`);
  const report = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  log(`extension-host test ok=${report.ok} in ${Date.now() - t0} ms`);
  return report.ok;
}

/** Hovers the first squiggle and saves <png> with the hover open; returns the hover's text. */
async function hoverShot(page, squiggles, png) {
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
  const hover = page.locator('.monaco-hover:visible');
  for (let attempt = 1; ; attempt++) {
    const box = await page.locator(squiggles).nth(1).boundingBox();
    await page.mouse.move(box.x + 8, box.y + box.height / 2);
    await page.waitForTimeout(200);
    await page.mouse.move(box.x + 10, box.y + box.height / 2);
    try {
      await hover.filter({ hasText: 'fix' }).first().waitFor({ state: 'visible', timeout: 15000 });
      break;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.mouse.move(0, 0);
    }
  }
  await page.waitForTimeout(500);
  await page.screenshot({ path: png });
  return (await hover.first().innerText()).trim();
}

async function shot(base, folder, file, png, resultFile, hoverPng) {
  const result = { file };
  const squiggles = '.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning, .monaco-editor .squiggly-info';
  await withPage(folderUrl(base, folder), async (page) => {
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    const opened = Date.now();
    result.openedAt = new Date(opened).toISOString();  // to line up with the extension's log
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first().click();
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 30000 });
    await page.waitForSelector(squiggles, { timeout: 90000 });
    result.squiggles = await page.locator(squiggles).count();
    result.squiggleMs = Date.now() - t0;
    result.openToSquiggleMs = Date.now() - opened;  // click on the file -> first squiggle (cold: first Python file)
    log(`open -> first squiggle: ${result.openToSquiggleMs} ms`);
    log('squiggles:', result.squiggles);
    const menu = page.locator('.action-widget .monaco-list-row.action').first();
    for (let attempt = 1; ; attempt++) {
      const box = await page.locator(squiggles).last().boundingBox(); // menu below the last one: all stay visible
      await page.mouse.click(box.x + 3, box.y + box.height / 2); // .view-lines intercepts element clicks
      await page.waitForTimeout(300);
      await page.keyboard.press('Control+.');
      try {
        await menu.waitFor({ state: 'visible', timeout: 20000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        log('no quick-fix menu yet, again');
        await page.keyboard.press('Escape');
      }
    }
    await page.waitForTimeout(400);
    result.quickFixes = (await page.locator('.action-widget').first().innerText()).trim().split('\n').filter(Boolean);
    log('quick-fix menu:', JSON.stringify(result.quickFixes));
    await page.screenshot({ path: png });
    if (hoverPng) {
      try {
        result.hoverText = await hoverShot(page, squiggles, hoverPng);
      } catch (e) {
        result.hoverError = String(e).slice(0, 300);  // the screenshot of the hover is a bonus, not a gate
      }
    }
    await page.keyboard.press('Escape');
  });
  result.totalMs = Date.now() - t0;
  fs.writeFileSync(resultFile, JSON.stringify(result, null, 2));
  return result.quickFixes.some((t) => t.startsWith('fullgraph ('));
}

const [mode, ...args] = process.argv.slice(2);
const modes = { exttest, shot };
if (!modes[mode]) {
  console.error('usage: node drive.cjs exttest|shot ... (see header)');
  process.exit(2);
}
modes[mode](...args).then(
  (ok) => process.exit(ok ? 0 : 1),
  (e) => { console.error(String(e && e.stack || e)); process.exit(1); },
);
