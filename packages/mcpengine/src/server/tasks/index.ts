/**
 * Tasks: long-running `tools/call` requests, in the 2025-11-25 dialect and the `io.modelcontextprotocol/tasks`
 * extension (2026-07-28).
 */
export { TaskEngine, type TaskOutcome } from './engine.js';
export {
  MemoryTaskStore,
  TaskLimitError,
  type MemoryTaskStoreOptions,
  type TaskPage,
  type TaskStore,
} from './store.js';
export { isTerminal, TASKS_EXTENSION, type TaskDialect, type TaskRecord } from './types.js';
export type { TaskOptions, TaskSettings } from './settings.js';
export type { ToolTaskOptions } from '../features/tools.js';
export { taskCapabilities } from './wire.js';
export { tasksExtension, type TasksExtension } from './extension.js';
