/**
 * `mcpengine inspect` without `--cli`: the local web UI.
 */
import type { RawArguments } from '../cli/arguments.js';
import type { CliIo } from '../cli/run-cli.js';

export async function runInspectWeb(_args: RawArguments, io: CliIo): Promise<number> {
  io.stderr('mcpengine inspect: the web UI is not available in this build; use --cli\n');
  return 1;
}
