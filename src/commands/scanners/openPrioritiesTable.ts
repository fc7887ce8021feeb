/**
 * Scanner Priorities Table: an input scanner's eight reporting priorities as
 * an editable table (src/webview/prioritiesTable.ts). From a scanner in the
 * tree, an open scanner document (editor title), the palette (pickers) or
 * `{ connectionId, folderKey, key }`.
 */
import { PrioritiesTable } from '../../webview/prioritiesTable';
import { targeted, thisObject } from '../framework/commandTargets';

export const openPrioritiesTable = targeted({
  id: 'oms.openPrioritiesTable',
  target: (s, arg) => thisObject(s, arg, 'inputScanner'),
  run(s, { address }) {
    PrioritiesTable.show(s, address);
  },
});
