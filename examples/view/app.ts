// The tasks board view (docs/apps.md), built with @mcpengine/apps-view.
import { AppView } from '@mcpengine/apps-view';

interface Task {
  id: number;
  title: string;
  done: boolean;
}

const view = new AppView({ name: 'tasks-board', version: '1.0.0' });
const list = document.getElementById('tasks')!;
const status = document.getElementById('status')!;

function render(tasks: Task[]): void {
  list.replaceChildren(
    ...tasks.map((task) => {
      const item = document.createElement('li');
      item.className = task.done ? 'done' : '';
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: task.done });
      box.disabled = task.done;
      box.addEventListener('click', () => complete(task.id));
      const label = document.createElement('label');
      label.textContent = task.title; // text, never markup
      item.append(box, label);
      return item;
    }),
  );
}

async function complete(id: number): Promise<void> {
  try {
    // Goes through the host to the server; allowed because complete_task has "app" visibility.
    const result = await view.callServerTool('complete_task', { id });
    render((result.structuredContent as { tasks: Task[] }).tasks);
    status.textContent = result.content[0]?.type === 'text' ? result.content[0].text : '';
  } catch (error) {
    status.textContent = `Refused: ${(error as Error).message}`;
  }
}

// The server rendered the tasks into the document; the tool result brings the current ones.
render(JSON.parse(document.getElementById('initial-tasks')?.textContent ?? '[]') as Task[]);
view.on('toolresult', (result) => render((result.structuredContent as { tasks: Task[] }).tasks));
await view.connect();
