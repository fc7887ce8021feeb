import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pager } from '../../../src/tree/pager';

function source(total: number, size: number) {
  const calls: number[] = [];
  const fetchPage = async (page: number) => {
    calls.push(page);
    await new Promise((r) => setTimeout(r, 5));
    const items = Array.from({ length: Math.max(0, Math.min(size, total - page * size)) }, (_, i) => page * size + i);
    return { items, next: items.length < size ? undefined : page + 1 };
  };
  return { calls, fetchPage };
}

test('a double "load more" loads the page once', async () => {
  const s = source(250, 100);
  const pager = new Pager(s.fetchPage);
  await Promise.all([pager.loadMore(), pager.loadMore()]);
  assert.deepEqual(s.calls, [0]);
  assert.equal(pager.items.length, 100);
  assert.equal(pager.hasMore, true);
});

test('load all stops at the short page; reset starts over', async () => {
  const s = source(250, 100);
  const pager = new Pager(s.fetchPage);
  await pager.loadAll();
  assert.deepEqual(s.calls, [0, 1, 2]);
  assert.deepEqual(
    pager.items,
    Array.from({ length: 250 }, (_, i) => i),
  );
  assert.equal(pager.hasMore, false);
  pager.reset();
  assert.equal(pager.items.length, 0);
  assert.equal(pager.hasMore, true);
});

test('an exact multiple of the page size ends at the empty page', async () => {
  const s = source(200, 100);
  const pager = new Pager(s.fetchPage);
  await pager.loadAll();
  assert.equal(pager.items.length, 200);
  assert.deepEqual(s.calls, [0, 1, 2]);
});

test('a reload after Load all lists every page again; after two pages, two pages', async () => {
  let total = 250;
  const calls: number[] = [];
  const fetchPage = async (page: number) => {
    calls.push(page);
    await new Promise((r) => setTimeout(r, 5));
    const items = Array.from({ length: Math.max(0, Math.min(100, total - page * 100)) }, (_, i) => page * 100 + i);
    return { items, next: items.length < 100 ? undefined : page + 1 };
  };
  const pager = new Pager(fetchPage);
  await pager.loadAll();
  total = 251; // one created since
  calls.length = 0;
  const reloading = pager.reload();
  assert.equal(pager.items.length, 250, 'the loaded pages stay shown while the reload runs');
  await reloading;
  assert.deepEqual(calls, [0, 1, 2]);
  assert.equal(pager.items.length, 251);
  assert.equal(pager.hasMore, false);

  const partly = new Pager(fetchPage);
  await partly.loadMore();
  await partly.loadMore();
  calls.length = 0;
  await Promise.all([partly.reload(), partly.loadMore()]);
  assert.deepEqual(calls, [0, 1], 'the two pages loaded, listed once each; the load joined the reload');
  assert.equal(partly.items.length, 200);
  assert.equal(partly.hasMore, true);
});
