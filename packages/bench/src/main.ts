/**
 * `npm run bench`: MCPEngine against the official SDKs and raw ceilings, side by side on this machine.
 */
import { runSuite } from './suite.js';
import { parseArgs, USAGE } from './settings.js';
import { SCENARIO_IDS } from './suite.js';
import { print } from './report/print.js';

let parsed;
try {
  parsed = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (parsed.kind === 'help') {
  process.stdout.write(USAGE);
} else if (parsed.kind === 'list') {
  for (const [id, title] of SCENARIO_IDS) print(`${id.padEnd(16)} ${title}`);
} else {
  process.exitCode = await runSuite(parsed.settings, process.argv.slice(2));
}
