/** The tools screen: a searchable list, a form per tool, progress and results. */
import { h, type ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Json } from './api.js';
import { AppPanel } from './apps/host.js';
import { ContentBlock } from './content.js';
import { SearchList, useList } from './lists.js';
import { Field, RawJsonField, initialValue, type Schema } from './schema-form.js';

export function ToolsPanel({ progress }: { progress: Record<string, Json> }): ComponentChild {
  const { items: tools, error: toolsError } = useList('tools/list', 'tools');
  const [tool, setTool] = useState<Json | undefined>();
  return h('section', { class: 'split' }, [
    h(SearchList, {
      items: tools,
      error: toolsError,
      label: 'tools',
      nameOf: (item) => String(item['name']),
      onPick: setTool,
    }),
    tool === undefined
      ? h('p', null, 'Pick a tool.')
      : h(ToolCall, { tool, progress, key: String(tool['name']) }),
  ]);
}

let calls = 0;

function ToolCall({ tool, progress }: { tool: Json; progress: Record<string, Json> }): ComponentChild {
  const schema = (tool['inputSchema'] as Schema | undefined) ?? { type: 'object' };
  const [args, setArgs] = useState<unknown>(() => initialValue(schema));
  const [raw, setRaw] = useState(false);
  const [callId, setCallId] = useState('');
  const [answer, setAnswer] = useState<Json | undefined>();
  const [running, setRunning] = useState(false);
  const [asTask, setAsTask] = useState(false);
  const call = async () => {
    const id = `call-${++calls}`;
    setCallId(id);
    setAnswer(undefined);
    setRunning(true);
    try {
      setAnswer(await api('call-tool', { name: tool['name'], arguments: args ?? {}, callId: id, asTask }));
    } catch (error) {
      setAnswer({ error: { message: (error as Error).message } });
    } finally {
      setRunning(false);
    }
  };
  // 2025-11-25 tools declare it; the modern tasks extension lets the server decide.
  const taskSupport = (tool['execution'] as Json | undefined)?.['taskSupport'] as string | undefined;
  const current = progress[callId];
  return h('div', { class: 'tool' }, [
    h('h2', null, String(tool['title'] ?? tool['name'])),
    h('p', null, String(tool['description'] ?? '')),
    tool['annotations']
      ? h('p', { class: 'annotations' }, `Annotations: ${JSON.stringify(tool['annotations'])}`)
      : null,
    h('label', { class: 'field inline' }, [
      h('input', { type: 'checkbox', checked: raw, onChange: () => setRaw(!raw) }),
      h('span', null, 'Edit arguments as raw JSON'),
    ]),
    raw
      ? h(RawJsonField, { schema, value: args, onChange: setArgs, path: 'args', label: 'Arguments' })
      : h(Field, { schema, value: args, onChange: setArgs, path: 'args', label: 'Arguments' }),
    taskSupport === 'forbidden'
      ? null
      : h('label', { class: 'field inline' }, [
          h('input', { type: 'checkbox', checked: asTask, onChange: () => setAsTask(!asTask) }),
          h(
            'span',
            null,
            `Run as a task (${taskSupport === undefined ? 'the server decides' : `the tool's task support: ${taskSupport}`})`,
          ),
        ]),
    h('button', { class: 'primary', disabled: running, onClick: () => void call() }, 'Call tool'),
    running
      ? h('button', { onClick: () => void api('cancel', { callId }).catch(() => undefined) }, 'Cancel call')
      : null,
    current
      ? h('div', { class: 'progress' }, [
          h('progress', {
            'aria-label': 'Progress',
            value: Number(current['progress']),
            ...(current['total'] === undefined ? {} : { max: Number(current['total']) }),
          }),
          h(
            'span',
            { 'data-testid': 'progress-text' },
            `${String(current['progress'])}${current['total'] === undefined ? '' : ` / ${String(current['total'])}`} ${String(current['message'] ?? '')}`,
          ),
        ])
      : null,
    answer === undefined
      ? null
      : taskOf(answer) !== undefined
        ? h(TaskView, { task: taskOf(answer)!, key: String(taskOf(answer)!['taskId']) })
        : h(ToolResult, { answer }),
    h(AppPanel, { tool, args, answer, callId, api }),
  ]);
}

/** The task a `tools/call` answer created (2025-11-25 `{ task }`, or the modern `resultType: "task"`). */
function taskOf(answer: Json): Json | undefined {
  const result = answer['result'] as Json | undefined;
  if (result === undefined) return undefined;
  if (result['resultType'] === 'task') return result;
  const task = result['task'] as Json | undefined;
  return typeof task?.['taskId'] === 'string' ? task : undefined;
}

/** A task-augmented call: its status (polled with `tasks/get`), its final result, cancellation. */
function TaskView({ task: created }: { task: Json }): ComponentChild {
  const taskId = String(created['taskId']);
  const [task, setTask] = useState<Json>(created);
  const [final, setFinal] = useState<Json | undefined>();
  const [error, setError] = useState('');
  const request = (method: string) =>
    api('request', { method, params: { taskId } }).then((answer) => {
      if (answer['error'] !== undefined) setError(JSON.stringify(answer['error']));
      else setTask((answer['result'] as Json | undefined) ?? task);
    });
  return h('div', { class: 'task', 'data-testid': 'task' }, [
    h('h3', null, `Task ${taskId}`),
    h('p', { 'data-testid': 'task-status' }, [
      `Status: ${String(task['status'])}`,
      task['statusMessage'] === undefined ? '' : ` — ${String(task['statusMessage'])}`,
      task['pollInterval'] === undefined && task['pollIntervalMs'] === undefined
        ? ''
        : ` (poll every ${String(task['pollInterval'] ?? task['pollIntervalMs'])} ms)`,
    ]),
    h('button', { onClick: () => void request('tasks/get') }, 'Refresh status'),
    h(
      'button',
      {
        onClick: () =>
          void api('task-result', { taskId }).then((answer) => (setFinal(answer), void request('tasks/get'))),
      },
      'Wait for the result',
    ),
    h('button', { onClick: () => void request('tasks/cancel') }, 'Cancel task'),
    error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
    final === undefined ? null : h(ToolResult, { answer: final }),
  ]);
}

function ToolResult({ answer }: { answer: Json }): ComponentChild {
  if (answer['error'] !== undefined)
    return h(
      'div',
      { class: 'result error', role: 'alert', 'data-testid': 'result' },
      `Error: ${JSON.stringify(answer['error'])}`,
    );
  const result = answer['result'] as Json;
  const content = (result['content'] as Json[] | undefined) ?? [];
  return h('div', { class: `result${result['isError'] === true ? ' error' : ''}`, 'data-testid': 'result' }, [
    result['isError'] === true ? h('p', null, 'The tool reported an error (isError)') : null,
    ...((answer['outputFindings'] as string[] | undefined) ?? []).map((finding) =>
      h('p', { class: 'error', role: 'alert' }, `Output check: ${finding}`),
    ),
    ...content.map((block, index) => h(ContentBlock, { block, key: index })),
    result['structuredContent'] === undefined
      ? null
      : h('div', null, [
          h('h3', null, 'Structured content'),
          h('pre', null, JSON.stringify(result['structuredContent'], null, 2)),
        ]),
  ]);
}
