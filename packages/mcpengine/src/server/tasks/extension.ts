/**
 * Tasks as a server extension: the 2025-11-25 tasks utility and the `io.modelcontextprotocol/tasks` extension
 * (2026-07-28) through one `ServerExtension` — capabilities when a tool allows tasks, the `tasks/*` methods,
 * and two gates: `tools/call` (task augmentation) and `subscriptions/listen` (`taskIds`).
 */
import type { ServerExtension } from '../extension.js';
import type { TaskEngine } from './engine.js';
import { agreedTaskIds, taskMethodHandlers } from './methods.js';
import { callToolAsTask, runsAsTask } from './tool-call.js';
import { TASKS_EXTENSION } from './types.js';
import { taskCapabilities } from './wire.js';

export interface TasksExtension extends ServerExtension {
  /** The engine that runs, stores and reports the server's tasks. */
  readonly engine: TaskEngine;
}

export function tasksExtension(engine: TaskEngine): TasksExtension {
  return {
    id: TASKS_EXTENSION,
    engine,
    capabilities: ({ tools, declared }) =>
      tools.some((tool) => tool.taskSupport !== 'forbidden') ? taskCapabilities(declared) : undefined,
    methods: taskMethodHandlers(engine),
    gates: {
      toolsCall: (tool, call) => {
        // Most calls are neither task-capable nor task-augmented: decided without a further call.
        if (tool.taskSupport === 'forbidden' && call.params.task === undefined) return undefined;
        return runsAsTask(tool, call) ? callToolAsTask(tool, call, engine) : undefined;
      },
      listen: async (call, requested, agreed) => {
        const taskIds = await agreedTaskIds(call, requested.taskIds, engine);
        if (taskIds !== undefined) agreed.taskIds = taskIds;
      },
    },
    close: () => engine.close(),
  };
}
