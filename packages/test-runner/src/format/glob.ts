/** `*` and `?` globs (mcp-jest filters and resource patterns) as anchored regular expressions. */
export function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch))
    .join('');
  return new RegExp(`^${source}$`);
}
