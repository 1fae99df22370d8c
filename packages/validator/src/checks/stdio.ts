/**
 * The stdio transport: only JSON-RPC messages on stdout (one per line, UTF-8), no server requests in the modern
 * era, and a prompt exit when stdin closes.
 */
import { factsOf } from '../revisions.js';
import { brief, clip } from '../evidence.js';
import { modernRequest } from '../session.js';
import { isObject, StdioChannel, type StdoutLine } from '@mcpengine/wire';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const STDIO_JSON_ONLY = defineCheck(
  'stdio.stdout-messages-only',
  'stdio',
  'Everything the server writes to stdout is a JSON-RPC message, one per line, in UTF-8',
  { facets: ['not-message', 'newlines', 'utf8'] },
);
export const STDIO_NO_REQUESTS = defineCheck(
  'stdio.no-server-requests',
  'stdio',
  'The server writes no JSON-RPC requests to stdout (2026-07-28: server-to-client requests go through MRTR)',
);
export const STDIO_EXIT_ON_EOF = defineCheck(
  'stdio.exit-on-stdin-close',
  'stdio',
  'The server exits promptly once its standard input is closed',
);
export const STDIO_NO_FLOOD = defineCheck(
  'stdio.bounded-output',
  'stdio',
  'The server’s output stays within the validator’s bounds (no line over 8 MiB, no more than 64 MiB in all)',
  // No statement of the spec bounds output: the requests a flood leaves unanswered fail their own checks.
  { advisory: true },
);

const EXIT_GRACE_MS = 2000;

function isMessage(value: unknown): boolean {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return false;
  return typeof value['method'] === 'string' || 'result' in value || 'error' in value;
}

/**
 * Whether the unparsable line at `index` is part of a message split over several lines (a message with embedded
 * newlines): some run of consecutive unparsable lines through it joins into a JSON-RPC message.
 */
function splitMessageAt(lines: readonly StdoutLine[], index: number): boolean {
  for (let start = Math.max(0, index - 50); start <= index; start++) {
    if (lines.slice(start, index + 1).some((l) => l.parseError === undefined)) continue;
    let text = '';
    for (let end = start; end < Math.min(lines.length, start + 200); end++) {
      const line = lines[end]!;
      if (line.parseError === undefined) break;
      text += `${line.text}\n`;
      if (end < index) continue;
      try {
        if (isMessage(JSON.parse(text))) return true;
      } catch {
        // Not yet a whole message.
      }
    }
  }
  return false;
}

/** Runs once the revision's other probes are done: judges every line every stdio process wrote. */
export const stdioOutputProbe: Probe = {
  name: 'stdio output',
  eras: ['legacy', 'modern'],
  transports: ['stdio'],
  checks: [STDIO_JSON_ONLY, STDIO_NO_REQUESTS, STDIO_NO_FLOOD],
  run(ctx) {
    const channels = ctx.state.channels.filter((c): c is StdioChannel => c instanceof StdioChannel);
    const bad: string[] = [];
    const facets = new Set<string>();
    let lines = 0;
    for (const channel of channels) {
      const all = channel.process.lines;
      all.forEach((line, index) => {
        lines++;
        if (line.parseError === 'not valid UTF-8') {
          bad.push(`not valid UTF-8: ${clip(line.text, 200)}`);
          facets.add('utf8');
        } else if (line.parseError !== undefined) {
          bad.push(`not JSON (${line.parseError}): ${clip(line.text, 200)}`);
          facets.add(splitMessageAt(all, index) ? 'newlines' : 'not-message');
        } else if (
          !isMessage(line.json) &&
          !(Array.isArray(line.json) && factsOf(ctx.revision).batching === 'required')
        ) {
          bad.push(`not a JSON-RPC message: ${clip(line.text, 200)}`);
          facets.add('not-message');
        }
      });
    }
    ctx.expect(
      STDIO_JSON_ONLY,
      bad.length === 0,
      `${lines} line(s) from ${channels.length} process(es), all JSON-RPC messages`,
      `${bad.length} line(s) on stdout are not JSON-RPC messages`,
      bad.length === 0 ? [] : [{ label: 'stdout lines', received: bad.slice(0, 5).join('\n') }],
      [...facets],
    );
    const floods = channels.map((c) => c.process.flood).filter((f): f is string => f !== undefined);
    ctx.expect(
      STDIO_NO_FLOOD,
      floods.length === 0,
      'output within bounds',
      `the server ${floods[0] ?? ''}; it was stopped`,
      [],
    );
    if (ctx.era === 'modern') {
      const requests = channels.flatMap((c) => c.serverRequests.map((entry) => entry.request));
      ctx.expect(
        STDIO_NO_REQUESTS,
        requests.length === 0,
        'no JSON-RPC requests on stdout',
        `the server wrote ${requests.length} request(s): ${brief(requests.map((r) => r['method']))}`,
        requests.length === 0
          ? []
          : [{ label: 'requests', received: clip(requests.map((r) => JSON.stringify(r)).join('\n')) }],
      );
    } else {
      ctx.notApplicable(STDIO_NO_REQUESTS, `${ctx.revision} lets the server send requests`);
    }
    return Promise.resolve();
  },
};

export const stdioExitProbe: Probe = {
  lane: 'isolated',
  name: 'stdio shutdown',
  eras: ['modern'],
  fresh: () => 1,
  transports: ['stdio'],
  checks: [STDIO_EXIT_ON_EOF],
  async run(ctx) {
    const channel = await ctx.open();
    if (!(channel instanceof StdioChannel)) return;
    const call = await channel.call(modernRequest(channel, ctx.revision, 'server/discover'), {
      timeoutMs: ctx.settings.requestTimeoutMs,
    });
    ctx.schema.response(call, 'server/discover');
    channel.process.closeStdin();
    const exit = await channel.process.waitForExit(EXIT_GRACE_MS);
    ctx.expect(
      STDIO_EXIT_ON_EOF,
      exit !== undefined,
      `exited ${exit?.at !== undefined ? 'after stdin closed' : ''} (code ${brief(exit?.code)})`,
      `still running ${EXIT_GRACE_MS} ms after its stdin was closed`,
      [
        {
          label: 'stdin closed after one request',
          note: exit === undefined ? 'the validator then sent SIGTERM' : `exit code ${brief(exit.code)}`,
        },
      ],
    );
  },
};
