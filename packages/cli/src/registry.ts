/**
 * Every `mcpengine` command, in the order `mcpengine --help` lists them. A command file declares its options
 * and loads the package that does the work only when it runs, so starting one command never loads the others.
 */
import type { CommandSpec } from './command.js';
import { add } from './commands/add.js';
import { center } from './commands/center.js';
import { generate } from './commands/generate.js';
import { inspect } from './commands/inspect.js';
import { list } from './commands/list.js';
import { remove } from './commands/remove.js';
import { serveOpenapi } from './commands/serve-openapi.js';
import { test } from './commands/test.js';
import { validate } from './commands/validate.js';

// Each spec is typed by its own options; the frame handles them uniformly.
export const COMMANDS: readonly CommandSpec[] = [
  validate,
  test,
  inspect,
  add,
  remove,
  list,
  generate,
  serveOpenapi,
  center,
];
