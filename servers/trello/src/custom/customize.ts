/**
 * The curated Trello server: the board → list → card workflow as eleven tools named and described for models;
 * the other operations of the description stay reachable behind discover_tools / call_operation. Trello's
 * description declares the key and token both as query parameters of every operation and as two alternative
 * security schemes; Trello needs both, so they become one scheme pair, read from TRELLO_API_KEY and TRELLO_TOKEN.
 * Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Exposure } from '../runtime/register.js';

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
  const missing = ['TRELLO_API_KEY', 'TRELLO_TOKEN'].filter((name) => !env[name]);
  if (missing.length > 0)
    throw new ConfigurationError(
      `missing environment variable${missing.length > 1 ? 's' : ''}: set ${missing.join(' and ')} ` +
        '(from https://trello.com/power-ups/admin: an API key, then a token authorised for it)',
    );
}

interface Curation {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: OperationTool['annotations'];
  /** The arguments a model needs; the rest (dozens of include-this flags) are left out. */
  readonly keep?: readonly string[];
  /** Fixed path values (`idMember: 'me'`): the argument disappears. */
  readonly fixed?: Readonly<Record<string, string>>;
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const CARD_FIELDS = ['name', 'desc', 'idList', 'idMembers', 'idLabels', 'due', 'pos'];

const CURATED: Readonly<Record<string, Curation>> = {
  getMembersBoardsByIdMember: {
    name: 'list_my_boards',
    title: 'List my boards',
    description:
      'The boards of the user the token belongs to (id, name, url, closed). Start here to find a board id. ' +
      'filter "open" (default) hides archived boards.',
    annotations: READ,
    keep: ['filter', 'fields'],
    fixed: { idMember: 'me' },
  },
  getBoardsByIdBoard: {
    name: 'get_board',
    title: 'Get a board',
    description:
      'One board by id: name, description, url, preferences. For its lists use list_board_lists, for its cards ' +
      'list_board_cards.',
    annotations: READ,
    keep: ['idBoard', 'fields'],
  },
  getBoardsListsByIdBoard: {
    name: 'list_board_lists',
    title: 'List the lists (columns) of a board',
    description:
      'The lists (columns such as "To do", "Doing", "Done") of a board, in order, with their ids. Use it to ' +
      'find the idList for create_card or for moving a card with update_card.',
    annotations: READ,
    keep: ['idBoard', 'filter', 'fields'],
  },
  getBoardsCardsByIdBoard: {
    name: 'list_board_cards',
    title: 'List the cards of a board',
    description:
      'Every card of a board (filter: open by default, or closed, all) with its list, members, labels and due ' +
      'date. For one list only use list_cards_in_list; to find cards by words use search.',
    annotations: READ,
    keep: ['idBoard', 'filter', 'fields', 'limit'],
  },
  getListsCardsByIdList: {
    name: 'list_cards_in_list',
    title: 'List the cards of one list',
    description: 'The cards of one list (column), in order. Use list_board_lists to find the idList.',
    annotations: READ,
    keep: ['idList', 'filter', 'fields', 'limit'],
  },
  getCardsByIdCard: {
    name: 'get_card',
    title: 'Get a card',
    description: 'One card by id (or short link): name, description, list, members, labels, due date, url.',
    annotations: READ,
    keep: ['idCard', 'fields'],
  },
  addCards: {
    name: 'create_card',
    title: 'Create a card',
    description:
      'Creates a card in a list (idList, required by Trello) with a name and optional description, due date ' +
      '(ISO 8601), members, labels and position ("top" or "bottom"). Only when the user asks to add a card.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    keep: CARD_FIELDS,
  },
  updateCardsByIdCard: {
    name: 'update_card',
    title: 'Update or move a card',
    description:
      'Changes a card: rename it, edit its description or due date, move it to another list (idList) or board ' +
      '(idBoard + idList), archive it (closed: true). Only the fields given change.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    keep: ['idCard', ...CARD_FIELDS, 'idBoard', 'closed'],
  },
  addCardsActionsCommentsByIdCard: {
    name: 'add_comment',
    title: 'Comment on a card',
    description: 'Adds a comment (text, Markdown) to a card, visible to everyone on the board.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    keep: ['idCard', 'text'],
  },
  deleteCardsByIdCard: {
    name: 'delete_card',
    title: 'Delete a card',
    description:
      'Deletes a card for good (no undo). Destructive: only when the user explicitly asks to delete it; to put ' +
      'a card away, archive it with update_card (closed: true).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    keep: ['idCard'],
  },
  getSearch: {
    name: 'search',
    title: 'Search boards, cards and members',
    description:
      'Searches the user\u2019s Trello for words (query) across cards, boards, organisations and members ' +
      '(modelTypes, default all). Use it when the user names something but not where it is. The description ' +
      'marks idOrganizations (comma-separated workspace ids) as required.',
    annotations: READ,
    keep: ['query', 'modelTypes', 'idBoards', 'cards_limit', 'boards_limit', 'partial'],
  },
};

/** Operations not curated: reachable through discovery, registered by `extend`. */
let discoverable: OperationTool[] = [];

/** Key and token are the security scheme pair, not arguments; fixed path values are filled in. */
function withoutCredentialArgs(
  tool: OperationTool,
  fixed: Readonly<Record<string, string>> = {},
): OperationTool {
  const dropped = new Set(['key', 'token', ...Object.keys(fixed)]);
  const gone = tool.params.filter((param) => dropped.has(param.name)).map((param) => param.arg);
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([arg]) => !gone.includes(arg)),
  );
  let path = tool.path;
  for (const [name, value] of Object.entries(fixed))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  return {
    ...tool,
    path,
    params: tool.params.filter((param) => !dropped.has(param.name)),
    inputSchema: {
      ...tool.inputSchema,
      properties,
      required: (schema.required ?? []).filter((arg) => !gone.includes(arg)),
    } as OperationTool['inputSchema'],
    security: [['api_key', 'api_token']],
  };
}

function curate(generated: OperationTool): OperationTool | undefined {
  checkCredentials();
  const curation = CURATED[generated.name];
  const tool = withoutCredentialArgs(generated, curation?.fixed);
  if (curation === undefined) {
    discoverable.push(tool);
    return undefined;
  }
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  // Arguments the description requires always stay, whatever the curation keeps.
  const keep =
    curation.keep === undefined ? undefined : new Set([...curation.keep, ...(schema.required ?? [])]);
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([arg]) => keep === undefined || keep.has(arg)),
  );
  return {
    ...tool,
    name: curation.name,
    title: curation.title,
    description: curation.description,
    inputSchema: {
      ...tool.inputSchema,
      properties,
      required: (schema.required ?? []).filter((arg) => properties[arg] !== undefined),
    } as OperationTool['inputSchema'],
    annotations: { title: curation.title, ...curation.annotations },
  };
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    const rest = discoverable;
    discoverable = [];
    registerOperationTools(server, rest, caller, { expose: 'groups' });
  },
  runtime: {
    env: {
      ...env,
      TRELLO_API_KEY_API_KEY: env['TRELLO_API_KEY'],
      TRELLO_API_TOKEN_API_KEY: env['TRELLO_TOKEN'],
    },
  },
  expose: 'all',
  instructions:
    'Trello: boards contain lists (columns) that contain cards. Find a board with list_my_boards or search, ' +
    'its lists with list_board_lists, then read, create, move (update_card idList) or comment on cards. ' +
    'Everything else of the Trello API (checklists, labels, webhooks, organisations…) is behind discover_tools.',
};
