// A result's cells as a reader sees them in the results table and `oms query --format table`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellText } from '../../../src/query/columns';

test('a cell holding objects shows their fields without the service type names, on one line, cut with an ellipsis', () => {
  const priorities = [
    { $type: 'Feenics.Keep.WebApi.Model.InputScannerReportingPriority, Feenics.Keep.WebApi.Model', Priority: 1, StatusCode: 4 },
    { $type: 'Feenics.Keep.WebApi.Model.InputScannerReportingPriority, Feenics.Keep.WebApi.Model', Priority: 2, StatusCode: 1 },
  ];
  assert.equal(cellText(priorities, 200), '[{"Priority":1,"StatusCode":4},{"Priority":2,"StatusCode":1}]');
  assert.equal(cellText('first\nsecond'), 'first second');
  assert.equal(cellText('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  assert.equal(cellText(null), '');
});
