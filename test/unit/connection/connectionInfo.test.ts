import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkBaseUrl,
  connectionNameProblem,
  isLoopback,
  needsPlainHttpConfirmation,
  normalizeBaseUrl,
  originOf,
} from '../../../src/connection/connectionInfo';

test('base URLs: full http(s) URLs without credentials, query or fragment', () => {
  assert.equal(checkBaseUrl('https://api.example.com'), undefined);
  assert.equal(checkBaseUrl('http://127.0.0.1:8080/prefix'), undefined);
  assert.match(checkBaseUrl('api.example.com')!, /full URL/);
  assert.match(checkBaseUrl('ftp://api.example.com')!, /https/);
  assert.match(checkBaseUrl('https://user:pw@api.example.com')!, /credentials/);
  assert.match(checkBaseUrl('https://api.example.com/?a=1')!, /query/);
  assert.equal(normalizeBaseUrl(' https://api.example.com/v1/ '), 'https://api.example.com/v1');
  assert.equal(originOf('https://api.example.com/v1'), 'https://api.example.com');
});

test('plain http needs a yes unless it stays on this machine', () => {
  assert.equal(needsPlainHttpConfirmation('http://api.example.com'), true);
  assert.equal(needsPlainHttpConfirmation('http://10.0.0.5:8080'), true);
  assert.equal(needsPlainHttpConfirmation('https://api.example.com'), false);
  assert.equal(needsPlainHttpConfirmation('http://127.0.0.1:8080'), false);
  assert.equal(needsPlainHttpConfirmation('http://localhost:8080'), false);
  assert.equal(isLoopback(new URL('http://127.1.2.3')), true);
  assert.equal(isLoopback(new URL('http://localhost.example.com')), false);
});

test('a connection name already in use is refused (any case, trimmed); keeping its own name is fine', () => {
  const list = [
    { id: 'a', label: 'Sandbox', baseUrl: 'http://127.0.0.1:1' },
    { id: 'b', label: 'Staging', baseUrl: 'https://s.example.com' },
  ];
  assert.match(connectionNameProblem(' sandbox ', list, 'b')!, /"Sandbox" is the name of another connection/);
  assert.equal(connectionNameProblem('Sandbox', list, 'a'), undefined);
  assert.equal(connectionNameProblem('Production', list, 'a'), undefined);
  assert.equal(connectionNameProblem('  ', list), 'Enter a name');
  assert.match(connectionNameProblem('Staging', list)!, /another connection/, 'a new connection may not take it either');
});
