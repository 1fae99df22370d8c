/**
 * The plumbing behind the context a task's handler gets: the same `ctx.progress()`, `ctx.log()`,
 * `ctx.elicit()`, `ctx.sample()` and `ctx.listRoots()` as in a request, routed the way each dialect wants.
 *
 * - 2025-11-25: notifications go to the session (through an open `tasks/result` stream when there is one) with
 *   the related-task metadata; input becomes server→client requests through `tasks/result`.
 * - extension: progress and log notifications are not part of tasks ("not supported on tasks in general"); a
 *   progress message becomes the task's `statusMessage`. Input makes the task `input_required` until
 *   `tasks/update` answers.
 */
import type { InputRequest, InputResponse, JsonObject, LoggingLevel } from '../../protocol/types.js';
import type { InputOptions, RequestContext, RequestIO } from '../context.js';
import type { LiveTask, TaskEngine } from './engine.js';

export class TaskIO implements RequestIO {
  constructor(
    private readonly engine: TaskEngine,
    private readonly live: LiveTask,
  ) {}

  get logLevel(): LoggingLevel | undefined {
    const session = this.live.session;
    return session ? (session.logLevel ?? 'debug') : undefined;
  }

  get progressMessage(): boolean {
    return this.live.session?.revision.progressMessage ?? true;
  }

  notify(method: string, params: JsonObject): void {
    const message = method === 'notifications/progress' ? params.message : undefined;
    if (typeof message === 'string' && message !== this.live.record.statusMessage) {
      void this.engine.update(this.live, { statusMessage: message });
    }
    if (this.live.record.dialect === 'experimental')
      this.engine.notifyExperimental(this.live, method, params);
  }

  input(request: InputRequest, options: InputOptions, ctx: RequestContext): Promise<InputResponse> {
    if (this.live.record.dialect === 'extension')
      return this.engine.askExtension(this.live, request, options.key);
    return this.engine.askExperimental(this.live, request, options, ctx);
  }
}
