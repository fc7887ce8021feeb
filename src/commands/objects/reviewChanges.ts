/** Review Changes: the server's current version beside the unsaved edit, before sending it. */
import { compareWithServer } from '../../documents/compare';
import { objectDocumentTarget, targeted } from '../framework/commandTargets';

export const reviewChanges = targeted({
  id: 'oms.reviewChanges',
  target: objectDocumentTarget,
  run: (_s, uri) => compareWithServer(uri),
});
