/**
 * The tasks app on stdio (docs/apps.md):
 *
 *   npm run build && node examples/dist/tasks-app-main.js
 */
import { exitWhenClosed } from 'mcpengine/server';
import { serveStdio } from 'mcpengine/stdio';
import { createTasksServer } from './tasks-app.js';

const server = createTasksServer('Ada', [
  { id: 1, title: 'Write the report', done: false },
  { id: 2, title: 'Review <script> handling', done: false },
]);
exitWhenClosed(await serveStdio(server));
