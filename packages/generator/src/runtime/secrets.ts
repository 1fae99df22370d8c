/**
 * Secrets never reach results or logs: every credential value read (environment, `--header`, OAuth tokens) is
 * registered here and replaced by `[redacted]` in any text the runtime hands out.
 */
export class Secrets {
  readonly #values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; credentials are longer than this.
    if (value !== undefined && value.length >= 4) this.#values.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const value of this.#values) {
      if (out.includes(value)) out = out.split(value).join('[redacted]');
      const encoded = encodeURIComponent(value);
      if (encoded !== value && out.includes(encoded)) out = out.split(encoded).join('[redacted]');
    }
    return out;
  }
}
