// The Twilio message log, built on @mcpengine/apps-view: the page list_messages returned, as a table with
// filters. Status, direction and text filter the page in the view; To, From and a start date load a new first
// page, and Next/Previous follow Twilio's page URIs, both through the app-only message_log_page tool (called
// through the host). Data is only ever set with textContent: nothing received becomes markup.
import { AppView } from '@mcpengine/apps-view';

interface Message {
  sid?: string;
  status?: string;
  direction?: string;
  from?: string;
  to?: string;
  date_sent?: string | null;
  date_created?: string | null;
  body?: string;
}
interface Page {
  messages?: Message[];
  next_page_uri?: string | null;
  previous_page_uri?: string | null;
  page?: number;
}

const PAGE_TOOL = 'message_log_page';
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<HTMLInputElement>(id);
const view = new AppView({ name: 'twilio-message-log', version: '0.1.0' });

let page: Page = {};
let pageSize: number | undefined;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function status(text: string): void {
  $('status').textContent = text;
}

/** Twilio's page URIs are paths of the API; anything else (another origin) is not followed. */
const followable = (uri: string | null | undefined): uri is string =>
  typeof uri === 'string' && uri.startsWith('/') && !uri.startsWith('//');

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className !== undefined) td.className = className;
  return td;
}

function matches(message: Message): boolean {
  const wanted = $<HTMLSelectElement>('filter-status').value;
  const direction = $<HTMLSelectElement>('filter-direction').value;
  const text = input('filter-text').value.trim().toLowerCase();
  if (wanted !== '' && message.status !== wanted) return false;
  if (direction === 'inbound' && message.direction !== 'inbound') return false;
  if (direction === 'outbound' && !String(message.direction ?? '').startsWith('outbound')) return false;
  if (text !== '')
    return [message.from, message.to, message.body, message.sid].some((v) =>
      String(v ?? '')
        .toLowerCase()
        .includes(text),
    );
  return true;
}

function renderRows(): void {
  const messages = page.messages ?? [];
  const shown = messages.filter(matches);
  const body = $('messages').querySelector('tbody')!;
  body.replaceChildren();
  for (const message of shown) {
    const tr = document.createElement('tr');
    const state = cell('');
    const badge = document.createElement('span');
    badge.textContent = message.status ?? '?';
    // A class from a fixed alphabet only: the status is data, never trusted as markup or as a class list.
    badge.className = `status status-${String(message.status ?? '').replace(/[^a-z-]/g, '')}`;
    state.appendChild(badge);
    tr.append(
      state,
      cell(message.direction ?? ''),
      cell(message.from ?? ''),
      cell(message.to ?? ''),
      cell(message.date_sent ?? message.date_created ?? ''),
      cell(message.body ?? '', 'body'),
    );
    body.appendChild(tr);
  }
  $('count').textContent =
    `${shown.length} of ${plural(messages.length, 'message')}` +
    (page.page === undefined ? '' : ` on page ${page.page + 1}`);
  $<HTMLButtonElement>('next').disabled = !followable(page.next_page_uri);
  $<HTMLButtonElement>('previous').disabled = !followable(page.previous_page_uri);
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && Array.isArray((value as Page).messages);
}

async function loadPage(args: Record<string, unknown>, what: string): Promise<void> {
  status(`Loading ${what}…`);
  try {
    const result = await view.callServerTool(PAGE_TOOL, args);
    if (result.isError || !isPage(result.structuredContent)) {
      const text = result.content.find((c) => c.type === 'text');
      return status(`The server refused: ${text?.type === 'text' ? text.text : 'no messages'}`);
    }
    page = result.structuredContent;
    renderRows();
    status(`Loaded ${what}: ${plural(page.messages?.length ?? 0, 'message')}`);
  } catch (error) {
    status(`Refused: ${(error as Error).message}`);
  }
}

view.on('toolinput', ({ arguments: args }) => {
  if (typeof args?.['To'] === 'string') input('to').value = args['To'];
  if (typeof args?.['From'] === 'string') input('from').value = args['From'];
  if (typeof args?.['DateSent__query_2'] === 'string')
    input('after').value = args['DateSent__query_2'].slice(0, 10);
  if (typeof args?.['PageSize'] === 'number') pageSize = args['PageSize'];
  status('Input received; waiting for the result…');
});
view.on('toolinputpartial', () => status('Receiving the input…'));
view.on('toolresult', (result) => {
  if (result.isError || !isPage(result.structuredContent)) {
    const text = result.content.find((c) => c.type === 'text');
    return status(`The tool failed: ${text?.type === 'text' ? text.text : 'no messages'}`);
  }
  page = result.structuredContent;
  renderRows();
  status(`Result received: ${plural(page.messages?.length ?? 0, 'message')}`);
});
view.on('toolcancelled', ({ reason }) => status(`Cancelled${reason ? `: ${reason}` : ''}`));

// Click and input handlers, not forms: hosts' sandboxes may not allow form submission.
for (const id of ['filter-status', 'filter-direction', 'filter-text'])
  $(id).addEventListener('input', () => renderRows());
$('load').addEventListener('click', () => {
  const args: Record<string, unknown> = {};
  if (input('to').value.trim() !== '') args['To'] = input('to').value.trim();
  if (input('from').value.trim() !== '') args['From'] = input('from').value.trim();
  if (input('after').value !== '') args['DateSentAfter'] = input('after').value;
  if (pageSize !== undefined) args['PageSize'] = pageSize;
  void loadPage(args, 'the first page');
});
$('next').addEventListener('click', () => {
  if (followable(page.next_page_uri)) void loadPage({ pageUri: page.next_page_uri }, 'the next page');
});
$('previous').addEventListener('click', () => {
  if (followable(page.previous_page_uri))
    void loadPage({ pageUri: page.previous_page_uri }, 'the previous page');
});

view.connect().catch((error: Error) => status(`Could not connect to the host: ${error.message}`));
