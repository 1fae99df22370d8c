import { expandParts, type UriTemplateVariables } from './expand.js';
import { compileMatcher, type CompiledMatcher, type UriTemplateMatch } from './match.js';
import { parseTemplate, type TemplatePart } from './parse.js';

/**
 * An RFC 6570 URI template (all four levels), parsed and compiled once: `expand` fills it in, `match`
 * recovers the variables from a URI it could have produced (see match.ts for how ambiguities are resolved).
 */
export class UriTemplate {
  readonly template: string;
  /** Distinct variable names, in order of first appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly TemplatePart[];
  readonly #matcher: CompiledMatcher;

  /** @throws UriTemplateError when the template is malformed or longer than 8 KiB. */
  constructor(template: string) {
    this.template = template;
    this.#parts = parseTemplate(template);
    const names = new Set<string>();
    for (const part of this.#parts) {
      if (part.kind === 'expression') for (const spec of part.vars) names.add(spec.name);
    }
    this.variableNames = Object.freeze([...names]);
    this.#matcher = compileMatcher(this.#parts);
  }

  /** @throws UriTemplateError when a prefix modifier (`{var:3}`) is given a list or map. */
  expand(vars: UriTemplateVariables): string {
    return expandParts(this.#parts, vars);
  }

  /** The variables of `uri`, or null when this template cannot have produced it (or it exceeds 8 KiB). */
  match(uri: string): UriTemplateMatch | null {
    return this.#matcher.match(uri);
  }

  toString(): string {
    return this.template;
  }
}
