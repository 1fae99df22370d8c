/**
 * The curated n8n server: the workflow → execution loop of n8n's public API as seventeen tools named and described
 * for models; the other operations of the description (projects, variables, data tables, source control, users'
 * roles, audit, settings…) stay reachable behind discover_tools / call_operation.
 *
 * The description itself is not in this repository (n8n's Sustainable Use License): `npm run build` generates
 * the operations from the pinned n8n package (scripts/generate.mjs); this file only selects, renames and
 * describes them. Auth: the API key (`X-N8N-API-KEY`) from N8N_API_KEY, the instance from N8N_BASE_URL (the
 * server adds `/api/v1`). Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Exposure } from '../runtime/register.js';
import {
  applyCuration,
  CREATE,
  DELETE,
  READ,
  shallowSchema,
  UPDATE,
  type Curation,
} from '../runtime/curate.js';

export interface Customization {
  /** Adjust or drop (return undefined) a generated tool: rename it, rewrite its description, … */
  readonly tool?: (tool: OperationTool) => OperationTool | undefined;
  /** Register hand-written tools, resources or prompts next to the generated ones. */
  readonly extend?: (server: McpServer, caller: OperationCaller) => void;
  /** Timeouts, retries, size limits (see RuntimeOptions). */
  readonly runtime?: RuntimeOptions;
  /** List every operation, or groups behind a discovery tool (default: groups above 40 operations). */
  readonly expose?: Exposure;
  readonly instructions?: string;
}

const env = process.env;
/** Where n8n serves its public API on an instance. */
const API_PATH = '/api/v1';

/** N8N_BASE_URL is the instance (https://n8n.example.com); an URL already ending in /api/v1 is kept as is. */
export function apiBaseUrl(instance: string | undefined): string | undefined {
  if (instance === undefined || instance === '') return undefined;
  const trimmed = instance.replace(/\/+$/, '');
  return trimmed.endsWith(API_PATH) ? trimmed : `${trimmed}${API_PATH}`;
}

function checkConfiguration(): void {
  const missing = ['N8N_API_KEY', 'N8N_BASE_URL'].filter((name) => !env[name]);
  if (missing.length > 0)
    throw new ConfigurationError(
      `missing environment variable${missing.length > 1 ? 's' : ''}: set ${missing.join(' and ')} ` +
        '(N8N_BASE_URL: the URL of your n8n instance, e.g. https://n8n.example.com; N8N_API_KEY: an API key ' +
        'from Settings > n8n API in that instance)',
    );
  let url: URL;
  try {
    url = new URL(env['N8N_BASE_URL']!);
  } catch {
    throw new ConfigurationError(
      `N8N_BASE_URL must be the URL of your n8n instance (https://n8n.example.com), got ${JSON.stringify(env['N8N_BASE_URL'])}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigurationError(`N8N_BASE_URL must be http or https, got ${url.protocol}`);
}

const LIST = ['limit', 'cursor', 'max_pages'];
const WORKFLOW_ID = 'The workflow id (list_workflows gives it; it is also the last part of the editor URL).';

const CURATED: Readonly<Record<string, Curation>> = {
  getWorkflows: {
    name: 'list_workflows',
    title: 'List workflows',
    description:
      'Workflows of the instance with id, name, active flag, tags and dates; filter by active ("true"/"false"), ' +
      'tags (comma-separated tag names), name or projectId. Start here to find a workflow id. Returns up to ' +
      'limit (max 250) per page with nextCursor; max_pages follows it. Not for runs: use list_executions.',
    annotations: READ,
    keep: ['active', 'tags', 'name', 'projectId', 'excludePinnedData', ...LIST],
  },
  getWorkflow: {
    name: 'get_workflow',
    title: 'Get a workflow (nodes and connections)',
    description:
      'One workflow by id: its nodes (type, parameters, credentials used), connections, settings, active flag ' +
      'and tags. Use it before changing a workflow or to explain what it does. ' +
      WORKFLOW_ID,
    annotations: READ,
    keep: ['workflowId', 'excludePinnedData'],
  },
  createWorkflow: {
    name: 'create_workflow',
    title: 'Create a workflow',
    description:
      'Creates an inactive workflow from name, nodes (each: name, type such as "n8n-nodes-base.webhook", ' +
      'typeVersion, position [x, y], parameters), connections ({"<source node name>": {"main": [[{"node": ' +
      '"<target>", "type": "main", "index": 0}]]}}) and settings ({} is fine). Only when the user asks for a new ' +
      'workflow; get_workflow of a similar one shows the exact node shapes. Activate it with activate_workflow.',
    annotations: CREATE,
    keep: ['name', 'nodes', 'connections', 'settings', 'projectId'],
    loosen: ['nodes', 'settings'],
  },
  activateWorkflow: {
    name: 'activate_workflow',
    title: 'Activate (publish) a workflow',
    description:
      'Publishes a workflow and makes its triggers live (webhooks answer, schedules run). The workflow needs a ' +
      'trigger node; n8n refuses (HTTP 400) otherwise. Only when the user asks to turn it on. ' +
      WORKFLOW_ID,
    annotations: { ...UPDATE, destructiveHint: false },
    keep: ['workflowId'],
  },
  deactivateWorkflow: {
    name: 'deactivate_workflow',
    title: 'Deactivate a workflow',
    description:
      'Turns a workflow off: its triggers stop (webhooks answer 404, schedules stop). Runs in progress finish. ' +
      'Only when the user asks to stop or pause it. ' +
      WORKFLOW_ID,
    annotations: UPDATE,
    keep: ['workflowId'],
  },
  deleteWorkflow: {
    name: 'delete_workflow',
    title: 'Delete a workflow',
    description:
      'Deletes a workflow for good, with its history (no undo). Destructive: only when the user explicitly asks ' +
      'to delete it; to stop it, use deactivate_workflow. ' +
      WORKFLOW_ID,
    annotations: DELETE,
    keep: ['workflowId'],
  },
  updateWorkflowTags: {
    name: 'set_workflow_tags',
    title: 'Set the tags of a workflow',
    description:
      'Replaces the tags of a workflow with the given list: body is [{"id": "<tag id>"}, …] (ids from list_tags ' +
      'or create_tag); an empty list removes every tag. Returns the tags now set.',
    annotations: UPDATE,
  },
  getExecutions: {
    name: 'list_executions',
    title: 'List executions (run history)',
    description:
      'Runs of workflows, newest first, with status (success, error, running, waiting, canceled…), mode, start ' +
      'and stop times; filter by workflowId, status, projectId. Use it for "did it run / why did it fail": then ' +
      'get_execution with includeData "true" for the node outputs and the error. Up to limit (max 250) per page ' +
      'with nextCursor; max_pages follows it.',
    annotations: READ,
    keep: ['workflowId', 'status', 'projectId', 'includeData', ...LIST],
  },
  getExecution: {
    name: 'get_execution',
    title: 'Get an execution',
    description:
      'One run by its numeric id: status, mode, times, workflow; with includeData "true" also every node\u2019s ' +
      'output and the error message of a failed run (can be large).',
    annotations: READ,
    keep: ['executionId', 'includeData'],
  },
  retryExecution: {
    name: 'retry_execution',
    title: 'Retry a failed execution',
    description:
      'Runs a failed execution again from the node that failed, with the same input data; loadWorkflow true uses ' +
      'the workflow as saved now (after a fix) instead of as it was. Returns the new execution. Only failed ' +
      'runs can be retried. It runs the workflow\u2019s side effects again: only when the user asks.',
    annotations: CREATE,
    keep: ['executionId', 'loadWorkflow'],
  },
  stopExecution: {
    name: 'stop_execution',
    title: 'Stop a running execution',
    description:
      'Stops an execution that is running or waiting (status becomes canceled). Only when the user asks to ' +
      'stop that run; to stop future runs use deactivate_workflow.',
    annotations: UPDATE,
    keep: ['executionId'],
  },
  deleteExecution: {
    name: 'delete_execution',
    title: 'Delete an execution',
    description:
      'Deletes one execution and its data from the history (no undo). Only when the user explicitly asks.',
    annotations: DELETE,
    keep: ['executionId'],
  },
  getCredentials: {
    name: 'list_credentials',
    title: 'List credentials',
    description:
      'The credentials stored in the instance: id, name, type (e.g. slackApi, httpBasicAuth), dates. Never ' +
      'their secret values. Use it to find the credential id a node references.',
    annotations: READ,
    keep: LIST,
  },
  getCredentialType: {
    name: 'get_credential_schema',
    title: 'Get the fields of a credential type',
    description:
      'The JSON Schema of a credential type\u2019s fields (credentialTypeName such as "httpBasicAuth", ' +
      '"slackApi", "githubApi"): which fields exist and which are required, to prepare a credential. No values.',
    annotations: READ,
    output: 'full',
  },
  getTags: {
    name: 'list_tags',
    title: 'List tags',
    description:
      'The workflow tags of the instance (id, name). Use the name to filter list_workflows by tag.',
    annotations: READ,
    keep: LIST,
  },
  createTag: {
    name: 'create_tag',
    title: 'Create a tag',
    description:
      'Creates a workflow tag (name must be unique; HTTP 409 if it exists: then use list_tags). Attach it with ' +
      'set_workflow_tags.',
    annotations: CREATE,
  },
  getUsers: {
    name: 'list_users',
    title: 'List users',
    description:
      'Users of the instance: id, email, names, whether they accepted the invitation, and their role with ' +
      'includeRole true. Owner or admin API keys only.',
    annotations: READ,
    keep: ['includeRole', 'projectId', ...LIST],
  },
};

/** Operations not curated: reachable through discovery, registered by `extend`. */
let discoverable: OperationTool[] = [];
let checked = false;

/** Behind discovery, an operation keeps its input schema and a shallow output schema (cheaper to compile). */
function discoverableTool(tool: OperationTool): OperationTool {
  const { outputSchema, ...rest } = tool;
  const shallow = shallowSchema(outputSchema);
  return shallow === undefined ? rest : { ...rest, outputSchema: shallow };
}

function curate(generated: OperationTool): OperationTool | undefined {
  if (!checked) {
    checkConfiguration();
    checked = true;
  }
  // The API key is n8n's documented way for the public API (the bearer and cookie schemes are for its UI).
  const tool: OperationTool = { ...generated, security: [['ApiKeyAuth']] };
  const curation = CURATED[generated.name];
  if (curation === undefined) {
    discoverable.push(discoverableTool(tool));
    return undefined;
  }
  return applyCuration(tool, curation);
}

const baseUrl = apiBaseUrl(env['N8N_BASE_URL']);

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    const rest = discoverable;
    discoverable = [];
    registerOperationTools(server, rest, caller, { expose: 'groups' });
  },
  runtime: {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    env: { ...env, N8N_APIKEYAUTH_API_KEY: env['N8N_API_KEY'] },
  },
  expose: 'all',
  instructions:
    'n8n: workflows are graphs of nodes started by a trigger (webhook, schedule, app event); each run is an ' +
    'execution. Find a workflow with list_workflows, read it with get_workflow; for "did it run / why did it ' +
    'fail" use list_executions (workflowId, status "error") then get_execution with includeData "true". The ' +
    'public API cannot start a workflow by itself: a workflow runs from its trigger (call its webhook URL) or ' +
    'from retry_execution of a failed run. Creating, activating, retrying and deleting change the instance: ' +
    'only on an explicit request. Projects, variables, data tables, source control and the rest of the API are ' +
    'behind discover_tools.',
};
