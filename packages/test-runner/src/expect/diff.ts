/**
 * A readable line diff (longest common subsequence), for snapshot mismatches: `-` expected, `+` received, with
 * a few lines of context around each change.
 */
export function lineDiff(expected: string, received: string, context = 3): string {
  const a = expected.split('\n');
  const b = received.split('\n');
  // LCS table; snapshots are small (bounded below), so O(n·m) is fine.
  if (a.length * b.length > 4_000_000)
    return `- ${a.length} expected lines\n+ ${b.length} received lines (too large to diff)`;
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: [' ' | '-' | '+', string][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push([' ', a[i++]!]);
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      ops.push(['-', a[i++]!]);
    else ops.push(['+', b[j++]!]);
  }
  const keep = ops.map((op, index) =>
    ops.slice(Math.max(0, index - context), index + context + 1).some(([kind]) => kind !== ' '),
  );
  const out: string[] = [];
  let skipped = false;
  ops.forEach(([kind, line], index) => {
    if (!keep[index]) {
      if (!skipped) out.push('  …');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${kind} ${line}`);
  });
  return out.join('\n');
}
