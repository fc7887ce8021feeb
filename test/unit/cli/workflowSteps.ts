/**
 * The steps of the GitHub Actions workflow and the scripts of the GitLab jobs in docs/ci.md, read from
 * their YAML blocks by indentation (the YAML is ours, written in a plain subset: `- name:`, `if:`, `env:`
 * maps, `run:` lines or blocks; a GitLab job's `script:` and `after_script:` lists of lines or `>` blocks).
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

/** The workflow's own `env:` (above its jobs). */
export function workflowEnv(yaml: string): Record<string, string> {
  const lines = yaml.split('\n');
  const env: Record<string, string> = {};
  for (const line of lines.slice(lines.indexOf('env:') + 1)) {
    const pair = /^ {2}(\w+): (.*)$/.exec(line);
    if (!pair) break;
    env[pair[1]] = pair[2];
  }
  return env;
}

/** A GitLab job's commands under `key` (script, after_script): one per list item, a folded (`>`) item's lines joined by spaces. */
export function gitlabScript(yaml: string, job: string, key: 'script' | 'after_script'): string[] {
  const lines = yaml.split('\n');
  const start = lines.indexOf(`${job}:`);
  if (start < 0) throw new Error(`no job ${job}`);
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  const at = body.indexOf(`  ${key}:`);
  if (at < 0) return [];
  const commands: string[] = [];
  let folded: string[] | undefined;
  for (const line of body.slice(at + 1)) {
    if (!/^ {4}/.test(line)) break; // the job's next key
    const item = /^ {4}- (.*)$/.exec(line);
    if (item) {
      folded = item[1] === '>' ? [] : undefined;
      commands.push(folded ? '' : item[1]);
    } else if (folded) {
      folded.push(line.trim());
      commands[commands.length - 1] = folded.join(' ');
    }
  }
  return commands;
}
