/**
 * The steps of the GitHub Actions workflow in docs/ci.md, read from its YAML block by indentation
 * (the workflow is ours, written in a plain subset: `- name:`, `if:`, `env:` maps, `run:` lines or blocks).
 */
export interface Step {
  name: string;
  if?: string;
  env: Record<string, string>;
  run: string;
}

export function workflowOf(markdown: string, heading: string): string {
  const from = markdown.indexOf(`## ${heading}`);
  const block = /```yaml\n([\s\S]*?)```/.exec(markdown.slice(from));
  if (from < 0 || !block) throw new Error(`no yaml block under ## ${heading}`);
  return block[1];
}

/** The steps with a `run:` of one job. */
export function stepsOf(yaml: string, job: string): Step[] {
  const lines = yaml.split('\n');
  const start = lines.indexOf(`  ${job}:`);
  if (start < 0) throw new Error(`no job ${job}`);
  const steps: Step[] = [];
  let step: Step | undefined;
  let mode: 'env' | 'run' | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^ {2}\S/.test(line)) break; // the next job
    const item = /^ {6}- (?:name: (.*)|uses: .*)$/.exec(line);
    if (item) {
      if (step?.run) steps.push(step);
      step = { name: item[1] ?? '', env: {}, run: '' };
      mode = undefined;
      continue;
    }
    if (!step) continue;
    const field = /^ {8}(\w+):(?: (.*))?$/.exec(line);
    if (field) {
      const [, key, value] = field;
      mode = key === 'env' ? 'env' : key === 'run' && value === '|' ? 'run' : undefined;
      if (key === 'if') step.if = value;
      if (key === 'run' && value !== '|') step.run = value;
      continue;
    }
    if (mode === 'env') {
      const pair = /^ {10}(\w+): (.*)$/.exec(line);
      if (pair) step.env[pair[1]] = pair[2];
    } else if (mode === 'run' && (line.startsWith('          ') || !line.trim())) {
      step.run += `${line.slice(10)}\n`;
    }
  }
  if (step?.run) steps.push(step);
  return steps;
}
