// Breaks: add coerces its arguments (the string "42" is taken as the number 42) instead of refusing them.
// caught-by: generate
import { correctCall, main } from './_server.mjs';
main({
  callTool(name, args, revision) {
    if (name !== 'add') return undefined;
    const coerced = Object.fromEntries(
      Object.entries(args).map(([k, v]) => [
        k,
        typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v,
      ]),
    );
    return correctCall(name, coerced, revision);
  },
});
