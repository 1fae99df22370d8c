/**
 * docs/apps.md: an MCP App with mcpengine/apps. `show_tasks` renders a task list view (`ui://tasks/board.html`);
 * `complete_task` is app-only: the view's checkboxes call it, the model never sees it. Every result carries text for
 * the model and for clients without Apps. The view (examples/view/) is built by `npm run build` with
 * @mcpengine/apps-view and inlined into one HTML document when read; the owner's name is rendered into it by the
 * server, escaped.
 */
import { fileURLToPath } from 'node:url';
import { apps, html, jsonForScript, readSingleFileView, trustedHtml } from 'mcpengine/apps';
import { McpServer } from 'mcpengine/server';

export interface Task {
  id: number;
  title: string;
  done: boolean;
}

const VIEW_DIR = fileURLToPath(new URL('../dist/view/', import.meta.url)); // the same from src/ and dist/

export function createTasksServer(owner: string, tasks: Task[]): McpServer {
  const server = new McpServer({ name: 'tasks', version: '1.0.0' });
  const app = apps(server);
  const summary = () =>
    tasks.map((t) => `${t.done ? '[x]' : '[ ]'} ${t.id}. ${t.title}`).join('\n') || 'No tasks.';

  app.resource({
    uri: 'ui://tasks/board.html',
    name: 'Task board',
    prefersBorder: true,
    // Read per request: the built view, with the owner rendered in (escaped) and the tasks as JSON data.
    html: async () => {
      const view = await readSingleFileView(VIEW_DIR);
      const header = html`<h1>${owner}'s tasks</h1>
        <script type="application/json" id="initial-tasks">
          ${trustedHtml(jsonForScript(tasks))}
        </script>`;
      return view.replace('<!-- server-header -->', () => String(header));
    },
  });

  app.tool({
    name: 'show_tasks',
    description: "Shows the user's tasks on a board",
    annotations: { readOnlyHint: true },
    ui: { resourceUri: 'ui://tasks/board.html' },
    // The text is what the model reads, and what clients without Apps show.
    handler: () => ({ content: [{ type: 'text', text: summary() }], structuredContent: { tasks } }),
  });

  app.tool<{ id: number }>({
    name: 'complete_task',
    description: 'Marks a task done (called by the board)',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
      additionalProperties: false,
    },
    ui: { resourceUri: 'ui://tasks/board.html', visibility: ['app'] },
    handler: ({ id }) => {
      const task = tasks.find((t) => t.id === id);
      if (!task) return { content: [{ type: 'text', text: `No task ${id}` }], isError: true };
      task.done = true;
      return { content: [{ type: 'text', text: `Done: ${task.title}` }], structuredContent: { tasks } };
    },
  });
  return server;
}
