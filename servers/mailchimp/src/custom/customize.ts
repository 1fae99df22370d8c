/**
 * The curated Mailchimp server (Marketing API 3.0): audiences, contacts, campaigns and their reports as fourteen
 * tools named and described for models; the other 258 operations (automations, e-commerce, landing pages,
 * templates, webhooks…) stay behind discover_tools / call_operation. Contacts are addressed by email: the
 * server computes Mailchimp's subscriber hash (MD5 of the lower-cased address), which no model should have to.
 * The data centre (`us6` in `…-us6`) comes from the API key. Never overwritten by regeneration.
 */
import { createHash } from 'node:crypto';
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

/** The key, and the API origin of its data centre (MAILCHIMP_BASE_URL wins, for tests). */
function credentials(): { key: string; baseUrl: string | undefined } {
  const key = env['MAILCHIMP_API_KEY'];
  if (!key)
    throw new ConfigurationError(
      'missing environment variable: set MAILCHIMP_API_KEY to an API key from Mailchimp (Profile → Extras → ' +
        'API keys); it ends with its data centre, e.g. …-us6',
    );
  const dc = /-([a-z]+\d+)$/.exec(key)?.[1];
  if (dc === undefined && !env['MAILCHIMP_BASE_URL'])
    throw new ConfigurationError(
      'MAILCHIMP_API_KEY must end with its data centre (e.g. 0123…-us6), or set MAILCHIMP_BASE_URL',
    );
  return { key, baseUrl: env['MAILCHIMP_BASE_URL'] ? undefined : `https://${dc}.api.mailchimp.com/3.0` };
}

/** Mailchimp's id of a contact in an audience: the MD5 of the lower-cased email address. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

const PAGE = ['count', 'offset'];
const AUDIENCE = 'list_id is the audience id (list_audiences).';

const CURATED: Readonly<Record<string, Curation>> = {
  getLists: {
    name: 'list_audiences',
    title: 'List audiences',
    description:
      'The account\u2019s audiences (lists) with their ids, names and member counts. Start here: every contact ' +
      'and most campaign tools need an audience id.',
    annotations: READ,
    keep: [...PAGE, 'sort_field', 'sort_dir'],
  },
  getListsId: {
    name: 'get_audience',
    title: 'Get an audience',
    description:
      'One audience: name, defaults, stats (members, unsubscribes, open and click rates). ' + AUDIENCE,
    annotations: READ,
    keep: ['list_id'],
  },
  getListsIdMembers: {
    name: 'list_members',
    title: 'List contacts of an audience',
    description:
      'The contacts of an audience, filtered by status (subscribed, unsubscribed, cleaned, pending…) or ' +
      'changed since a date; count per page (max 1000), offset to page. For one person use get_member, to ' +
      'find someone by name or partial email search_members. ' +
      AUDIENCE,
    annotations: READ,
    keep: ['list_id', 'status', 'since_last_changed', 'vip_only', ...PAGE],
  },
  getSearchMembers: {
    name: 'search_members',
    title: 'Search contacts',
    description:
      'Finds contacts by name or (part of an) email across audiences, or in one (list_id). Use it when the ' +
      'user gives a name or an incomplete address; with a full address use get_member.',
    annotations: READ,
    keep: ['query', 'list_id'],
  },
  getCampaigns: {
    name: 'list_campaigns',
    title: 'List campaigns',
    description:
      'Email campaigns, filtered by status (save = draft, schedule, sending, sent), type, audience or send ' +
      'time, sorted by create_time or send_time. Use it to find a campaign id.',
    annotations: READ,
    keep: [
      'status',
      'type',
      'list_id',
      'since_send_time',
      'before_send_time',
      'sort_field',
      'sort_dir',
      ...PAGE,
    ],
  },
  getCampaignsId: {
    name: 'get_campaign',
    title: 'Get a campaign',
    description: 'One campaign: settings (subject, from name), recipients, status, send time, tracking.',
    annotations: READ,
    keep: ['campaign_id'],
  },
  postCampaigns: {
    name: 'create_campaign',
    title: 'Create a draft campaign',
    description:
      'Creates a draft campaign: type (regular for a normal email), recipients ({"list_id": …}) and settings ' +
      '({"subject_line", "from_name", "reply_to"}). It sends nothing: add content with set_campaign_content, ' +
      'then send_campaign.',
    annotations: CREATE,
    keep: ['type', 'recipients', 'settings', 'tracking'],
    // Segment conditions alone are 25 kB of schema; the API checks them.
    loosen: ['recipients'],
  },
  putCampaignsIdContent: {
    name: 'set_campaign_content',
    title: 'Set the content of a campaign',
    description:
      'Replaces the body of a draft campaign: html (and optionally plain_text), or a template ' +
      '({"id": …, "sections": {…}}). Only for drafts; a sent campaign cannot change.',
    annotations: UPDATE,
    keep: ['campaign_id', 'html', 'plain_text', 'template'],
  },
  postCampaignsIdActionsSend: {
    name: 'send_campaign',
    title: 'Send a campaign now',
    description:
      'Sends a ready campaign to its whole audience immediately. Cannot be undone: only when the user ' +
      'explicitly asks to send it, after checking it with get_campaign.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    keep: ['campaign_id'],
  },
  getReportsId: {
    name: 'get_campaign_report',
    title: 'Get a campaign report',
    description:
      'The results of a sent campaign: emails sent, opens, clicks, bounces, unsubscribes and their rates. Use ' +
      'it for "how did the newsletter do" questions.',
    annotations: READ,
    keep: ['campaign_id'],
  },
};

/** Contact operations addressed by email instead of subscriber hash (registered by `extend`). */
const BY_EMAIL: Readonly<Record<string, Curation>> = {
  getListsIdMembersId: {
    name: 'get_member',
    title: 'Get a contact by email',
    description:
      'One contact of an audience by email address: status, merge fields (FNAME, LNAME…), tags, activity ' +
      'stats. A 404 means the address is not in that audience. ' +
      AUDIENCE,
    annotations: READ,
    keep: ['list_id'],
  },
  putListsIdMembersId: {
    name: 'upsert_member',
    title: 'Add or update a contact',
    description:
      'Adds a contact to an audience or updates it if the email is already there: status_if_new (subscribed, ' +
      'pending = double opt-in…) applies only to a new contact, status changes an existing one; merge_fields ' +
      'sets FNAME, LNAME…. Only with the person\u2019s consent to receive email. ' +
      AUDIENCE,
    annotations: UPDATE,
    keep: ['list_id', 'status_if_new', 'status', 'merge_fields', 'email_type', 'language', 'vip'],
  },
  patchListsIdMembersId: {
    name: 'update_member',
    title: 'Update or unsubscribe a contact',
    description:
      'Changes an existing contact: status (unsubscribed to unsubscribe, subscribed to resubscribe), merge ' +
      'fields, a new email_address. Fails with 404 for an address not in the audience (use upsert_member). ' +
      AUDIENCE,
    annotations: UPDATE,
    keep: ['list_id', 'status', 'merge_fields', 'email_address', 'vip'],
  },
};

let discoverable: OperationTool[] = [];
let byEmail: OperationTool[] = [];
let configured: { key: string; baseUrl: string | undefined } | undefined;

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
  configured ??= credentials();
  const tool: OperationTool = { ...generated, security: [['basicAuth']] };
  const curation = CURATED[generated.name];
  if (curation !== undefined) return applyCuration(tool, curation);
  const emailCuration = BY_EMAIL[generated.name];
  if (emailCuration !== undefined) byEmail.push(applyCuration(tool, emailCuration));
  else discoverable.push(discoverableTool(tool));
  return undefined;
}

/** A contact tool: `email` replaces `subscriber_hash` in its input; the hash is computed for the call. */
function registerByEmail(server: McpServer, caller: OperationCaller, tool: OperationTool): void {
  const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
  // The address is `email`: for PUT (upsert) the server also writes it into the body's email_address.
  const filled = tool.method === 'put' ? ['subscriber_hash', 'email_address'] : ['subscriber_hash'];
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([arg]) => !filled.includes(arg)),
  );
  const email = {
    type: 'string',
    minLength: 3,
    description: 'The contact\u2019s email address (the server derives Mailchimp\u2019s subscriber hash).',
  };
  server.addTool<Record<string, unknown> & { email: string }>({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: {
      ...schema,
      properties: { list_id: properties['list_id'], email, ...properties },
      required: ['email', ...(schema.required ?? []).filter((arg) => !filled.includes(arg))],
    } as unknown as JsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonSchema }),
    annotations: { ...tool.annotations },
    handler: ({ email: address, ...args }, ctx) => {
      // PUT (upsert) needs the address in the body too; PATCH may change it (email_address).
      const body = tool.method === 'put' ? { email_address: address } : {};
      return caller.call(tool, { ...body, ...args, subscriber_hash: subscriberHash(address) }, ctx.signal);
    },
  });
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    for (const tool of byEmail) registerByEmail(server, caller, tool);
    const rest = discoverable;
    discoverable = [];
    byEmail = [];
    registerOperationTools(server, rest, caller, { expose: 'groups' });
  },
  get runtime(): RuntimeOptions {
    configured ??= credentials();
    return {
      ...(configured.baseUrl === undefined ? {} : { baseUrl: configured.baseUrl }),
      env: {
        ...env,
        MAILCHIMP_BASICAUTH_USERNAME: 'mcpengine',
        MAILCHIMP_BASICAUTH_PASSWORD: configured.key,
      },
    };
  },
  expose: 'all',
  instructions:
    'Mailchimp: audiences (lists) hold contacts; campaigns are emails sent to an audience. Find the audience ' +
    'with list_audiences, contacts by email with get_member (or search_members), add or update them with ' +
    'upsert_member. Campaigns: create_campaign (draft) → set_campaign_content → send_campaign (irreversible, ' +
    'only on request); results with get_campaign_report. The rest of the Marketing API (automations, ' +
    'e-commerce, templates, webhooks…) is behind discover_tools.',
};
