/** Run as a child process by lostAnswers.test.ts: plans a pulled folder and applies it, until it is killed. */
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { applyPlan } from '../../../../src/changes/code/apply';
import { makePlan } from '../../../../src/changes/code/plan';
import { bindingOf } from '../../../../src/changes/code/pull';

async function main(): Promise<void> {
  const { OMS_ROOT: root, OMS_URL: url, OMS_TOKEN: token } = process.env;
  const client = new OmsClient(createHttp({ baseUrl: url!, token: () => token! }));
  const binding = await bindingOf(client, 'Sandbox', url!);
  const { plan } = await makePlan(client, root!, binding);
  process.send?.({ planned: plan.entries.filter((e) => e.selected).length });
  await applyPlan(client, root!, binding, plan, { stopOnError: false, concurrency: 4 });
  process.send?.({ done: true });
}

void main();
