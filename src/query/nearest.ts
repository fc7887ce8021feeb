/** The names nearest a misspelt one (edit distance, case ignored; a name that contains the other counts as near). */
export function nearestNames(name: string, names: Iterable<string>, most = 3): string[] {
  const wanted = name.toLowerCase();
  const scored: Array<{ n: string; d: number }> = [];
  for (const n of names) {
    const lower = n.toLowerCase();
    const d = lower.includes(wanted) || wanted.includes(lower) ? 1 : distance(wanted, lower);
    if (d <= Math.max(2, Math.floor(wanted.length / 3))) scored.push({ n, d });
  }
  return scored
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, most)
    .map((s) => s.n);
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
