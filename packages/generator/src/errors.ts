/**
 * A description that cannot be served: what is wrong and where (a JSON pointer into the description, or a line
 * for syntax errors). The command line prints it as one line and exits 2.
 */
export class DescriptionError extends Error {
  override readonly name = 'DescriptionError';
  readonly where: string | undefined;

  constructor(message: string, where?: string) {
    super(message);
    this.where = where;
  }

  /** One line: `<source>: <what> (at <where>)`. */
  line(source: string): string {
    const what = this.message.replace(/\s+/g, ' ').trim();
    return `${source}: ${what}${this.where === undefined ? '' : ` (at ${this.where})`}`;
  }
}

/** Escapes a key for a JSON pointer (RFC 6901). */
export function pointerKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
