// The query results table scrolled through many rows in the real host (opt-in: OMS_UI_BENCH=1, rows from
// OMS_UI_BENCH_ROWS, 100,000 unless given; minutes, not part of `npm test`). The scanners are made over REST in
// Warehouse, a query matching them all is run from the palette, and the table is scrolled top to bottom by keyboard
// (200 Page Downs, End, Home) and by the mouse wheel, with the frame meter of the fleet checks in the table's own frame:
// the longest gap between two frames, how many exceed 50 ms, and the page's JS heap (performance.memory). The
// figures are printed (`results scroll:` lines, which bench/resultsScroll.bench.ts records) and written to
// results-scroll.txt; the check fails when a frame gap exceeds its goal.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { OmsClient } from '../../../src/api/client';
import { createHttp } from '../../../src/api/http';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import { palette, until, type Env, type UiCheckList } from './helpers';
import { resultsFrame } from './query';

const count = Number(process.env.OMS_UI_BENCH_ROWS ?? 100_000);
const scanners = kind('inputScanner');
const prefix = 'Scroll ';
/** A frame gap a person sees as a stutter. */
const slowFrameMs = 50;
/** The goal for the longest: scrolling never holds the table up for long. */
const goalMs = 200;

/** Page code, in the table's frame: every gap between animation frames. */
const meterStart = `(() => {
  const m = (window.__omsScroll = { gaps: [], last: performance.now(), on: true });
  const tick = (t) => { if (!m.on) return; m.gaps.push(t - m.last); m.last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})()`;
const meterStop = `(() => {
  const m = window.__omsScroll; m.on = false;
  const mem = performance.memory;
  return { frames: m.gaps.length, longest: Math.round(Math.max(0, ...m.gaps)), slow: m.gaps.filter((g) => g > ${slowFrameMs}).length,
    heapMb: mem ? Math.round(mem.usedJSHeapSize / 1048576) : undefined };
})()`;

interface Figures {
  frames: number;
  longest: number;
  slow: number;
  heapMb?: number;
}

async function seed(env: Env): Promise<number> {
  const client = new OmsClient(createHttp({ baseUrl: env.OMS_SANDBOX_URL, token: () => env.OMS_SANDBOX_TOKEN }));
  const root = await client.instance();
  const folder = (await client.listAll(kind('folder'), root.Key!)).find((f) => f.CommonName === 'Warehouse');
  if (!folder?.Key) throw new Error('no folder Warehouse in the demo data');
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) await client.create(scanners, folder.Key!, newObject(scanners, `${prefix}${next++}`));
    }),
  );
  return Date.now() - t0;
}

/** `step` with the meter on in the table's frame: its figures and wall time. */
async function measured(frame: Frame, step: () => Promise<void>): Promise<Figures & { ms: number }> {
  await frame.evaluate(meterStart);
  const t0 = Date.now();
  await step();
  // The last frames drawn, then the meter read.
  await frame.page().waitForTimeout(300);
  const ms = Date.now() - t0;
  return { ...(await frame.evaluate<Figures>(meterStop)), ms };
}

async function scrollThrough(page: Page, env: Env, diag: string): Promise<void> {
  const seeded = await seed(env);
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Find Objects Where…');
  const box = page.locator('.quick-input-widget input[placeholder^="A JMESPath query"]').first();
  await box.waitFor({ timeout: 10_000 });
  await box.fill(`starts_with(CommonName, '${prefix}')`);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Run the query' }).first().click({ timeout: 10_000 });
  const frame = await resultsFrame(page);
  const t0 = Date.now();
  await until(`${count} matched`, async () => (await frame.locator('#progress').innerText()).startsWith(`${count} matched of`), 600_000);
  const filled = Date.now() - t0;
  const rowCount = await frame.locator('#grid').getAttribute('aria-rowcount');
  if (rowCount !== String(count + 1)) throw new Error(`the table holds ${Number(rowCount) - 1} rows, not ${count}`);
  await frame.locator('#body [role="row"]').first().click();
  const lastRow = frame.locator(`#body [role="row"][aria-rowindex="${count + 1}"]`);

  // Page Down held: 200 screens of rows from the top, as fast as the keys come (End then goes the rest of the way).
  const pages = await measured(frame, async () => {
    for (let i = 0; i < 200 && !(await lastRow.count()); i++) await page.keyboard.press('PageDown');
  });
  const reached = Number(await frame.locator('#body [role="row"]:focus').getAttribute('aria-rowindex')) - 1;
  const endHome = await measured(frame, async () => {
    await page.keyboard.press('End');
    await lastRow.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Home');
    await frame.locator('#body [role="row"][aria-rowindex="2"]').waitFor({ timeout: 10_000 });
  });
  // The wheel: 100 notches down, then the scrollbar's whole height in 20 big turns.
  const box2 = await frame.locator('#scroller').boundingBox();
  if (box2) await page.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
  const wheel = await measured(frame, async () => {
    for (let i = 0; i < 100; i++) await page.mouse.wheel(0, 120);
    for (let i = 0; i < 20 && !(await lastRow.count()); i++) {
      await page.mouse.wheel(0, (count * 24) / 20);
      await page.waitForTimeout(50);
    }
  });
  if (!(await lastRow.count())) throw new Error('the wheel did not reach the last row');
  await page.screenshot({ path: `${diag}/results-scroll.png` });

  const line = (what: string, f: Figures & { ms: number }) =>
    `results scroll: ${what}: ${f.frames} frames in ${(f.ms / 1000).toFixed(1)} s, ` +
    `longest ${f.longest} ms, ${f.slow} over ${slowFrameMs} ms, heap ${f.heapMb ?? '?'} MB`;
  const lines = [
    `results scroll: ${count.toLocaleString('en')} scanners made over REST in ${(seeded / 1000).toFixed(1)} s; ` +
      `the table filled in ${(filled / 1000).toFixed(1)} s`,
    line(`Page Down ×200 (to row ${reached.toLocaleString('en')})`, pages),
    line('End, then Home', endHome),
    line('wheel (100 notches, then to the bottom)', wheel),
    `results scroll: goal: longest frame ≤ ${goalMs} ms`,
  ];
  for (const l of lines) console.log(l);
  fs.writeFileSync(path.join(diag, 'results-scroll.txt'), lines.join('\n') + '\n');
  const worst = Math.max(pages.longest, endHome.longest, wheel.longest);
  if (worst > goalMs) throw new Error(`a frame gap of ${worst} ms while scrolling ${count} rows (goal ≤ ${goalMs} ms)`);
}

export const resultsScrollChecks: UiCheckList = (page, env, diag) =>
  process.env.OMS_UI_BENCH !== '1'
    ? []
    : [[`ui: bench: the query results table scrolled through ${count.toLocaleString('en')} rows (frame gaps, heap)`, () => scrollThrough(page, env, diag)]];
