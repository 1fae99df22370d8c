/**
 * The curated Jira server (Jira Cloud platform REST API v3): search with JQL, read, create, edit, comment,
 * transition and assign issues, find projects and users, as thirteen tools named and described for models; the
 * other 487 operations (workflows, screens, permissions, dashboards…) stay behind discover_tools /
 * call_operation. Text a model writes (a comment, an issue description) is plain text: the server wraps it in
 * the Atlassian Document Format v3 requires. Credentials: JIRA_BASE_URL (the site), JIRA_EMAIL and
 * JIRA_API_TOKEN (HTTP basic, Atlassian's scheme for API tokens). Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { JsonSchema } from 'mcpengine/schema';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Exposure } from '../runtime/register.js';
import { applyCuration, shallowSchema, CREATE, READ, UPDATE, type Curation } from '../runtime/curate.js';

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

function checkCredentials(): void {
  const missing = ['JIRA_BASE_URL', 'JIRA_EMAIL', 'JIRA_API_TOKEN'].filter((name) => !env[name]);
  if (missing.length > 0)
    throw new ConfigurationError(
      `missing environment variable${missing.length > 1 ? 's' : ''}: set ${missing.join(', ')} (the site, ` +
        'e.g. https://acme.atlassian.net; the account email; an API token from ' +
        'https://id.atlassian.com/manage-profile/security/api-tokens)',
    );
  if (env['JIRA_BASE_URL']!.includes('your-domain'))
    throw new ConfigurationError(
      'JIRA_BASE_URL is still the placeholder: set it to your site, e.g. https://acme.atlassian.net',
    );
}

/** Plain text as an Atlassian Document Format document: one paragraph per blank-line-separated block. */
export function adf(text: string): Record<string, unknown> {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .map((block) => ({
      type: 'paragraph',
      content: block
        .split('\n')
        .flatMap((line, i) => [
          ...(i > 0 ? [{ type: 'hardBreak' }] : []),
          ...(line.length > 0 ? [{ type: 'text', text: line }] : []),
        ]),
    }));
  return { type: 'doc', version: 1, content: paragraphs };
}

const KEY = 'issueIdOrKey: an issue key such as PROJ-123 (or its numeric id).';

const CURATED: Readonly<Record<string, Curation>> = {
  searchForIssuesUsingJql: {
    name: 'search_issues',
    title: 'Search issues with JQL',
    description:
      'Finds issues with a JQL query, e.g. `project = PROJ AND status != Done ORDER BY updated DESC`, ' +
      '`assignee = currentUser() AND resolution = Unresolved`, `text ~ "login bug"`. fields limits what comes ' +
      'back (e.g. ["summary","status","assignee"]); maxResults per page (default 50), startAt to page. Use it ' +
      'whenever the user asks about "my issues", "open bugs", or names issues by their words.',
    annotations: READ,
    keep: ['jql', 'startAt', 'maxResults', 'fields'],
  },
  getIssue: {
    name: 'get_issue',
    title: 'Get an issue',
    description:
      'One issue with its fields: summary, status, assignee, reporter, priority, description (Atlassian ' +
      'Document Format), labels, dates. fields limits what comes back. ' +
      KEY,
    annotations: READ,
    keep: ['issueIdOrKey', 'fields'],
  },
  editIssue: {
    name: 'update_issue',
    title: 'Update an issue',
    description:
      'Sets fields of an issue: `fields` maps field ids to values, e.g. {"summary": "New title", "labels": ' +
      '["backend"], "priority": {"name": "High"}}; a description must be an Atlassian Document Format object. ' +
      'Not for status (transition_issue), assignee (assign_issue) or comments (add_comment). ' +
      KEY,
    annotations: UPDATE,
    keep: ['issueIdOrKey', 'fields', 'update', 'notifyUsers'],
  },
  getComments: {
    name: 'list_comments',
    title: 'List the comments of an issue',
    description: 'The comments of an issue, oldest first (orderBy "-created" for newest first). ' + KEY,
    annotations: READ,
    keep: ['issueIdOrKey', 'startAt', 'maxResults', 'orderBy'],
  },
  getTransitions: {
    name: 'list_transitions',
    title: 'List the status changes available',
    description:
      'The transitions an issue can take now (their ids and target statuses, e.g. 31 → "In Progress"). Call ' +
      'it before transition_issue: transition ids differ between workflows. ' +
      KEY,
    annotations: READ,
    keep: ['issueIdOrKey'],
  },
  doTransition: {
    name: 'transition_issue',
    title: 'Change the status of an issue',
    description:
      'Moves an issue through its workflow: transition {"id": "31"} from list_transitions (never guess an id). ' +
      'Some transitions require fields (e.g. a resolution). ' +
      KEY,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    keep: ['issueIdOrKey', 'transition', 'fields'],
  },
  assignIssue: {
    name: 'assign_issue',
    title: 'Assign an issue',
    description:
      'Assigns an issue to a user by accountId (find it with find_users), or unassigns it (accountId null). ' +
      KEY,
    annotations: UPDATE,
    keep: ['issueIdOrKey', 'accountId'],
  },
  searchProjects: {
    name: 'list_projects',
    title: 'Find projects',
    description:
      'Projects visible to the user, optionally matching a query (name or key), with their keys. Use it to ' +
      'find the project key for JQL or create_issue.',
    annotations: READ,
    keep: ['query', 'startAt', 'maxResults', 'orderBy'],
  },
  findUsers: {
    name: 'find_users',
    title: 'Find users',
    description:
      'Users matching a name or email (query), with their accountId: the id assign_issue and JQL need ' +
      '(`assignee = 5b10ac8d82e05b22cc7d4ef5`).',
    annotations: READ,
    keep: ['query', 'maxResults'],
  },
  getCurrentUser: {
    name: 'get_myself',
    title: 'Who am I',
    description: 'The user the API token belongs to: accountId, display name, email, time zone.',
    annotations: READ,
    keep: [],
  },
};

/** Operations whose text a model writes as plain text; the server builds the request body (registered by `extend`). */
interface Mapped {
  readonly curation: Curation;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required: readonly string[];
  /** The arguments `map` builds (bound to the request, never listed). */
  readonly built: readonly string[];
  readonly map: (args: Record<string, unknown>) => Record<string, unknown>;
}

const MAPPED: Readonly<Record<string, Mapped>> = {
  addComment: {
    curation: {
      name: 'add_comment',
      title: 'Comment on an issue',
      description:
        'Adds a comment to an issue, in plain text (blank lines separate paragraphs); the server converts it ' +
        'to Atlassian Document Format. Visible to everyone who can see the issue. ' +
        KEY,
      annotations: CREATE,
      keep: ['issueIdOrKey'],
    },
    properties: { text: { type: 'string', minLength: 1, description: 'The comment, plain text.' } },
    required: ['issueIdOrKey', 'text'],
    built: ['body'],
    map: ({ text, ...rest }) => ({ ...rest, body: adf(String(text)) }),
  },
  createIssue: {
    curation: {
      name: 'create_issue',
      title: 'Create an issue',
      description:
        'Creates an issue in a project (projectKey from list_projects) with a summary, an issue type (Task by ' +
        'default; Bug, Story… as the project defines) and an optional plain-text description, labels and ' +
        'assignee accountId; `fields` adds any other field (custom fields by id). Only when the user asks to ' +
        'file an issue: search_issues first to avoid duplicates.',
      annotations: CREATE,
      keep: [],
    },
    properties: {
      projectKey: { type: 'string', minLength: 1, description: 'The project key, e.g. PROJ.' },
      summary: { type: 'string', minLength: 1, maxLength: 255, description: 'The one-line title.' },
      issueType: { type: 'string', default: 'Task', description: 'The issue type name (default Task).' },
      description: { type: 'string', description: 'Plain text; blank lines separate paragraphs.' },
      labels: { type: 'array', items: { type: 'string' } },
      assigneeAccountId: { type: 'string', description: 'The assignee\u2019s accountId (find_users).' },
      fields: { type: 'object', description: 'Other fields by id, e.g. {"priority": {"name": "High"}}.' },
    },
    required: ['projectKey', 'summary'],
    built: ['fields'],
    map: (args) => ({
      fields: {
        ...(args['fields'] as Record<string, unknown> | undefined),
        project: { key: args['projectKey'] },
        summary: args['summary'],
        issuetype: { name: args['issueType'] ?? 'Task' },
        ...(typeof args['description'] === 'string' ? { description: adf(args['description']) } : {}),
        ...(Array.isArray(args['labels']) ? { labels: args['labels'] } : {}),
        ...(typeof args['assigneeAccountId'] === 'string'
          ? { assignee: { accountId: args['assigneeAccountId'] } }
          : {}),
      },
    }),
  },
};

let discoverable: OperationTool[] = [];
let mapped: { tool: OperationTool; mapped: Mapped }[] = [];
let checked = false;

/**
 * An operation behind discovery keeps its input schema and a shallow output schema: every server start compiles
 * the schemas of every operation, and the full response schemas of this description make that take seconds.
 */
function discoverableTool(tool: OperationTool): OperationTool {
  const { outputSchema, ...rest } = tool;
  const shallow = shallowSchema(outputSchema);
  return shallow === undefined ? rest : { ...rest, outputSchema: shallow };
}

function curate(generated: OperationTool): OperationTool | undefined {
  if (!checked) {
    checkCredentials();
    checked = true;
  }
  const tool: OperationTool = { ...generated, security: [['basicAuth']] };
  const curation = CURATED[generated.name];
  if (curation !== undefined) return applyCuration(tool, curation);
  const entry = MAPPED[generated.name];
  if (entry !== undefined) {
    const keep = [...(entry.curation.keep ?? []), ...entry.built];
    mapped.push({ tool: applyCuration(tool, { ...entry.curation, keep }), mapped: entry });
  } else discoverable.push(discoverableTool(tool));
  return undefined;
}

function registerMapped(
  server: McpServer,
  caller: OperationCaller,
  tool: OperationTool,
  entry: Mapped,
): void {
  const kept = Object.fromEntries(
    Object.entries((tool.inputSchema['properties'] ?? {}) as Record<string, unknown>).filter(
      ([arg]) => !entry.built.includes(arg),
    ),
  );
  server.addTool<Record<string, unknown>>({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: {
      type: 'object',
      properties: { ...kept, ...entry.properties },
      required: [...entry.required],
      additionalProperties: false,
    } as unknown as JsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonSchema }),
    annotations: { ...tool.annotations },
    handler: (args, ctx) => {
      const passthrough = Object.fromEntries(Object.entries(args).filter(([arg]) => arg in kept));
      const built = entry.map(Object.fromEntries(Object.entries(args).filter(([arg]) => !(arg in kept))));
      return caller.call(tool, { ...built, ...passthrough }, ctx.signal);
    },
  });
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    for (const { tool, mapped: entry } of mapped) registerMapped(server, caller, tool, entry);
    const rest = discoverable;
    discoverable = [];
    mapped = [];
    registerOperationTools(server, rest, caller, { expose: 'groups' });
  },
  runtime: {
    env: {
      ...env,
      JIRA_BASICAUTH_USERNAME: env['JIRA_EMAIL'],
      JIRA_BASICAUTH_PASSWORD: env['JIRA_API_TOKEN'],
    },
  },
  expose: 'all',
  instructions:
    'Jira: find issues with search_issues (JQL), read one with get_issue, then comment (add_comment, plain ' +
    'text), change fields (update_issue), move it through its workflow (list_transitions, then ' +
    'transition_issue) or assign it (find_users, then assign_issue). Project keys come from list_projects. ' +
    'Everything else of the Jira platform API (workflows, screens, permissions, dashboards…) is behind ' +
    'discover_tools; boards and sprints belong to the Jira Software API, which this server does not cover.',
};
