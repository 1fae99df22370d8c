/**
 * Security lints over tool, prompt and resource metadata. Most are advisory (the spec has no statement they
 * test, so they warn and never count in the scores): hidden instructions, invisible or bidirectional Unicode,
 * names shadowing common tools, oversized descriptions, and tool definitions that changed since a recorded
 * baseline. Whether tool definitions depend on the client's self-reported identity is tested against the
 * 2026-07-28 statement that servers should not change behaviour on it.
 */
import { createHash } from 'node:crypto';
import { brief } from '../evidence.js';
import { CLIENT_INFO, hasCapability, LegacySession } from '../session.js';
import { isObject, type JsonObject } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { compareViewpoints } from './listing.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const SEC_HIDDEN_INSTRUCTIONS = defineCheck(
  'security.hidden-instructions',
  'security',
  'No descriptions carry instructions aimed at the model (hidden directives, exfiltration hints)',
  { advisory: true },
);
export const SEC_INVISIBLE_UNICODE = defineCheck(
  'security.invisible-unicode',
  'security',
  'No names or descriptions contain invisible, tag or bidirectional-control Unicode characters',
  { advisory: true },
);
export const SEC_SHADOWING = defineCheck(
  'security.tool-shadowing',
  'security',
  'No tool name shadows a tool commonly provided by other servers',
  { advisory: true },
);
export const SEC_OVERSIZED = defineCheck(
  'security.oversized-description',
  'security',
  'Descriptions stay under 2,000 characters',
  { advisory: true },
);
export const SEC_CHANGED = defineCheck(
  'security.definition-changed',
  'security',
  'Tool definitions match the recorded baseline (no silent changes between runs)',
  { advisory: true },
);
export const SEC_CLIENT_INFO = defineCheck(
  'security.client-identity',
  'security',
  'The tools offered do not depend on the client’s self-reported identity',
);

const HIDDEN_PATTERNS: { pattern: RegExp; why: string }[] = [
  {
    pattern: /<\s*(important|system|instructions?|secret|hidden)\s*>/i,
    why: 'a pseudo-tag addressed to the model',
  },
  {
    pattern: /ignore (all |any )?(previous|prior|above) (instructions|prompts?)/i,
    why: 'an instruction override',
  },
  {
    pattern: /do not (tell|inform|mention|reveal)[^.]{0,40}(user|human)/i,
    why: 'asks to hide something from the user',
  },
  {
    pattern: /(before|prior to) (using|calling) (this|any other) tool[^.]{0,80}(read|send|include|pass)/i,
    why: 'a precondition that moves data',
  },
  {
    pattern: /(~\/\.ssh|id_rsa|\.aws\/credentials|\.env\b|\/etc\/passwd|mcp\.json)/i,
    why: 'refers to credential files',
  },
  { pattern: /<!--[\s\S]*?-->/, why: 'an HTML comment (invisible when rendered)' },
  {
    pattern: /(system prompt|conversation history)[^.]{0,60}(send|include|pass|append)/i,
    why: 'asks for the conversation to be passed on',
  },
];

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

const COMMON_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'search_files',
  'create_directory',
  'move_file',
  'execute_command',
  'run_command',
  'run_terminal_cmd',
  'shell',
  'bash',
  'exec',
  'fetch',
  'web_search',
  'search',
  'send_email',
  'send_message',
  'git_commit',
  'git_push',
  'browser_navigate',
  'query',
  'sql_query',
  'get_weather',
];

const MAX_DESCRIPTION = 2000;

interface Texts {
  readonly where: string;
  readonly text: string;
}

function collectTexts(kind: string, items: readonly JsonObject[] | undefined): Texts[] {
  const out: Texts[] = [];
  const visit = (where: string, value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') out.push({ where, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => visit(`${where}[${i}]`, v, depth + 1));
    else if (isObject(value)) {
      for (const [key, v] of Object.entries(value)) {
        if (
          ['name', 'title', 'description', 'uri', 'uriTemplate'].includes(key) ||
          isObject(v) ||
          Array.isArray(v)
        )
          visit(`${where}.${key}`, v, depth + 1);
      }
    }
  };
  for (const item of items ?? []) visit(`${kind} ${brief(item['name'] ?? item['uri'], 60)}`, item, 0);
  return out;
}

export function toolHash(tool: JsonObject): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : isObject(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical(value[key])]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(canonical(tool)))
    .digest('hex');
}

export const securityProbe: Probe = {
  name: 'security lints',
  eras: ['legacy', 'modern'],
  // Legacy revisions: a second session with another clientInfo, when there are tools to compare.
  fresh: (state) => (state.era === 'legacy' && hasCapability(state.profile, 'tools') ? 1 : 0),
  checks: [
    SEC_HIDDEN_INSTRUCTIONS,
    SEC_INVISIBLE_UNICODE,
    SEC_SHADOWING,
    SEC_OVERSIZED,
    SEC_CHANGED,
    SEC_CLIENT_INFO,
  ],
  async run(ctx: ProbeContext) {
    const { inventory } = ctx;
    const texts = [
      ...collectTexts('tool', inventory.tools),
      ...collectTexts('prompt', inventory.prompts),
      ...collectTexts('resource', inventory.resources),
      ...collectTexts('template', inventory.templates),
    ];
    if (texts.length === 0) {
      for (const check of [SEC_HIDDEN_INSTRUCTIONS, SEC_INVISIBLE_UNICODE, SEC_OVERSIZED])
        ctx.notRun(check, 'no tools, prompts or resources listed');
    } else {
      const hidden = texts.flatMap(({ where, text }) =>
        HIDDEN_PATTERNS.filter(({ pattern }) => pattern.test(text)).map(
          ({ why }) => `${where}: ${why} (${brief(text, 120)})`,
        ),
      );
      ctx.expect(
        SEC_HIDDEN_INSTRUCTIONS,
        hidden.length === 0,
        `${texts.length} text field(s) scanned`,
        hidden.slice(0, 5).join('; '),
        [],
      );
      const invisible = texts
        .filter(({ text }) => INVISIBLE.test(text))
        .map(({ where, text }) => {
          const found = [...text]
            .filter((ch) => INVISIBLE.test(ch))
            .map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
          return `${where}: ${[...new Set(found)].join(', ')}`;
        });
      ctx.expect(
        SEC_INVISIBLE_UNICODE,
        invisible.length === 0,
        'no invisible or bidirectional characters',
        invisible.slice(0, 5).join('; '),
        [],
      );
      const long = texts
        .filter(({ where, text }) => where.endsWith('.description') && text.length > MAX_DESCRIPTION)
        .map(({ where, text }) => `${where}: ${text.length} characters`);
      ctx.expect(
        SEC_OVERSIZED,
        long.length === 0,
        `descriptions under ${MAX_DESCRIPTION} characters`,
        long.slice(0, 5).join('; '),
        [],
      );
    }
    const tools = inventory.tools ?? [];
    if (tools.length === 0) {
      ctx.notRun(SEC_SHADOWING, 'no tools listed');
      ctx.notRun(SEC_CHANGED, 'no tools listed');
      ctx.notRun(SEC_CLIENT_INFO, 'no tools listed');
      return;
    }
    const shadowing = tools
      .map((t) => String(t['name']))
      .filter((name) => COMMON_TOOLS.includes(name.toLowerCase()));
    ctx.expect(
      SEC_SHADOWING,
      shadowing.length === 0,
      'no common tool names',
      `names commonly used by other servers: ${shadowing.join(', ')}`,
      [],
    );

    const baseline = ctx.settings.baseline;
    if (baseline === undefined) ctx.notRun(SEC_CHANGED, 'no --baseline file given');
    else {
      const current = Object.fromEntries(tools.map((tool) => [String(tool['name']), toolHash(tool)]));
      const recorded = baseline.previous?.[ctx.revision];
      baseline.current[ctx.revision] = current;
      if (recorded === undefined) ctx.pass(SEC_CHANGED, `baseline recorded for ${tools.length} tool(s)`);
      else {
        const changed = Object.keys(current).filter(
          (name) => recorded[name] !== undefined && recorded[name] !== current[name],
        );
        const added = Object.keys(current).filter((name) => recorded[name] === undefined);
        const removed = Object.keys(recorded).filter((name) => current[name] === undefined);
        const parts = [
          changed.length > 0 ? `changed: ${changed.join(', ')}` : '',
          added.length > 0 ? `added: ${added.join(', ')}` : '',
          removed.length > 0 ? `removed: ${removed.join(', ')}` : '',
        ].filter(Boolean);
        ctx.expect(
          SEC_CHANGED,
          parts.length === 0,
          'tool definitions unchanged since the baseline',
          parts.join('; '),
          [],
        );
      }
    }

    // The same listing, asked for by a client that says it is someone else.
    const otherClient = { name: 'claude-code', version: '2.0.0' };
    const labels = {
      same: `the same tools for clientInfo ${CLIENT_INFO.name} and ${otherClient.name}`,
      other: `as ${otherClient.name}`,
    };
    if (ctx.era === 'modern') {
      await compareViewpoints(
        ctx,
        SEC_CLIENT_INFO,
        'tools/list',
        'tools',
        () => ctx.rpc('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientInfo': otherClient } }),
        labels,
      );
      return;
    }
    const channel = await ctx.open();
    const { session } = await LegacySession.open(channel, ctx.revision, {
      timeoutMs: ctx.settings.requestTimeoutMs,
      clientInfo: otherClient,
    });
    if (session === undefined) {
      ctx.notRun(SEC_CLIENT_INFO, 'a second session could not be initialized');
      return;
    }
    await compareViewpoints(
      ctx,
      SEC_CLIENT_INFO,
      'tools/list',
      'tools',
      () => session.request('tools/list', {}, { timeoutMs: ctx.settings.requestTimeoutMs }),
      labels,
      ctx.target.kind === 'stdio',
    );
  },
};
