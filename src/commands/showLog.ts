import { log } from '../log';
import type { Command } from './services';

export const showLog: Command = {
  id: 'oms.showLog',
  run() {
    log().show();
  },
};
