/**
 * The client's answers to the server's questions, scripted by the test file: sampling and elicitation rules
 * tried in order (the first whose `when` matches the request answers), and a fixed list of roots. Every request
 * is recorded, so tests can expect what the server asked (`expect.asked`).
 */
import type { ClientHandlers } from 'mcpengine/client';
import { match } from '../expect/match.js';
import { objectValue } from '../generate/values.js';
import type { ClientScript, JsonObject } from '../model.js';

export interface AskedRecord {
  readonly kind: 'sampling' | 'elicitation' | 'roots';
  readonly params: JsonObject;
}

export class ScriptedHandlers {
  /** The script of the test running now (falls back to the file's). */
  current: ClientScript;
  readonly asked: AskedRecord[] = [];
  /** Requests no rule answered: a failure of the test that caused them. */
  readonly unanswered: string[] = [];
  readonly #declared: ClientScript;

  /** `declared` is every handler kind the file uses anywhere: it decides the capabilities the client declares. */
  constructor(fileScript: ClientScript, declared: ClientScript) {
    this.current = fileScript;
    this.#declared = declared;
  }

  handlers(): ClientHandlers {
    const out: ClientHandlers = {};
    if (this.#declared.sampling !== undefined)
      out.sampling = (params) => {
        this.asked.push({ kind: 'sampling', params: params as never });
        const rule = (this.current.sampling ?? []).find(
          (r) => r.when === undefined || match(params, r.when).length === 0,
        );
        if (rule === undefined) return this.#refuse('sampling/createMessage', params);
        return rule.reply as never;
      };
    if (this.#declared.elicitation !== undefined)
      out.elicitation = (params) => {
        this.asked.push({ kind: 'elicitation', params: params as never });
        const rule = (this.current.elicitation ?? []).find(
          (r) => r.when === undefined || match(params, r.when).length === 0,
        );
        if (rule === undefined) return this.#refuse('elicitation/create', params);
        // Accepting without scripted content fills the form with plausible values of its schema.
        const schema = (params as { requestedSchema?: Record<string, unknown> }).requestedSchema ?? {};
        return (
          rule.action === 'accept'
            ? { action: 'accept', content: rule.content ?? formContent(schema) }
            : { action: rule.action }
        ) as never;
      };
    if (this.#declared.roots !== undefined)
      out.roots = () => {
        this.asked.push({ kind: 'roots', params: {} });
        return (this.current.roots ?? []).map((root) => ({ ...root }));
      };
    return out;
  }

  #refuse(method: string, params: unknown): never {
    const text = JSON.stringify(params);
    this.unanswered.push(
      `the server sent ${method} and no client rule matched it: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`,
    );
    throw new Error(`mcpengine test: no scripted answer for this ${method}`);
  }
}

/**
 * Plausible form values for a requested schema, shaped as the official schemas allow an ElicitResult's content:
 * strings, integers, booleans and string arrays only (a `number` field is answered with an integer).
 */
export function formContent(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(objectValue(schema, schema, true))) {
    if (typeof value === 'number') out[key] = Math.round(value);
    else if (typeof value === 'string' || typeof value === 'boolean') out[key] = value;
    else if (Array.isArray(value)) out[key] = value.map(String);
  }
  return out;
}

/** Every handler kind a file declares, in the file or in any test. */
export function declaredScript(
  file: ClientScript,
  tests: readonly { client?: ClientScript }[],
): ClientScript {
  const all = [file, ...tests.map((t) => t.client ?? {})];
  const any = (key: keyof ClientScript) => all.some((script) => script[key] !== undefined);
  return {
    ...(any('sampling') ? { sampling: [] } : {}),
    ...(any('elicitation') ? { elicitation: [] } : {}),
    ...(any('roots') ? { roots: [] } : {}),
  };
}
