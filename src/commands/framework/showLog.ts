import { log } from '../../log';
import type { Command } from './command';

export const showLog: Command = {
  id: 'oms.showLog',
  run() {
    log().show();
  },
};
