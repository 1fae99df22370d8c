/**
 * A small JSONPath: `$`, `.name`, `["name"]` / `['name']`, `[index]` (negative counts from the end) and
 * `.length`-free paths; enough to point into `structuredContent`. A path that leads nowhere yields `undefined`.
 */
export type PathStep = string | number;

export function parseJsonPath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  else if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) rest = `.${rest}`;
  while (rest !== '') {
    let m: RegExpExecArray | null;
    if ((m = /^\.([A-Za-z_$][\w$-]*)/.exec(rest))) steps.push(m[1]!);
    else if ((m = /^\[(-?\d+)\]/.exec(rest))) steps.push(Number(m[1]));
    else if ((m = /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest)))
      steps.push(JSON.parse(`"${m[1]!}"`) as string);
    else if ((m = /^\[\s*'([^']*)'\s*\]/.exec(rest))) steps.push(m[1]!);
    else
      throw new Error(
        `not a JSONPath this runner understands: ${JSON.stringify(path)} (at ${JSON.stringify(rest)})`,
      );
    rest = rest.slice(m[0].length);
  }
  return steps;
}

export function evaluateJsonPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const step of parseJsonPath(path)) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step < 0 ? current.length + step : step];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
      current = Object.hasOwn(current, step) ? (current as Record<string, unknown>)[step] : undefined;
    }
  }
  return current;
}
