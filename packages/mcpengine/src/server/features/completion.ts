/**
 * Argument completion for prompt arguments and resource template variables.
 */
import type { CompleteResult, JsonObject } from '../../protocol/types.js';
import type { RequestContext } from '../context.js';

export interface CompletionRequest {
  /** What the user has typed so far. */
  value: string;
  /** Other arguments already resolved (`context.arguments`, 2025-06-18 on). */
  arguments: Readonly<Record<string, string>>;
  ctx: RequestContext;
}

/** Returns candidate values; the engine trims to the spec's 100 and fills in `total`/`hasMore`. */
export type Completer = (
  request: CompletionRequest,
) =>
  | readonly string[]
  | CompleteResult['completion']
  | Promise<readonly string[] | CompleteResult['completion']>;

export const MAX_COMPLETION_VALUES = 100;

export function finishCompletion(returned: readonly string[] | CompleteResult['completion']): CompleteResult {
  const all = Array.isArray(returned) ? returned : (returned as CompleteResult['completion']).values;
  const values = all.filter((v): v is string => typeof v === 'string');
  const explicit = Array.isArray(returned) ? undefined : (returned as CompleteResult['completion']);
  const completion: CompleteResult['completion'] = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  const total = explicit?.total ?? (values.length > MAX_COMPLETION_VALUES ? values.length : undefined);
  if (total !== undefined) completion.total = total;
  const hasMore = explicit?.hasMore ?? values.length > MAX_COMPLETION_VALUES;
  if (hasMore || explicit?.hasMore !== undefined) completion.hasMore = hasMore;
  return { completion };
}

export const EMPTY_COMPLETION: CompleteResult = { completion: { values: [] } };

export function readCompletionContext(params: JsonObject): Record<string, string> {
  const context = params.context as JsonObject | undefined;
  const args = context?.arguments as JsonObject | undefined;
  const out: Record<string, string> = {};
  if (args && typeof args === 'object') {
    for (const [k, v] of Object.entries(args)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}
