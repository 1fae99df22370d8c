/**
 * Stable statement ids: `<page>-<8 hex>` from the sentence itself, so that an id survives re-extraction, moves
 * within a page and identical wording in another revision (which then shares the id and its classification).
 */
import { createHash } from 'node:crypto';

/** What the hash sees: wording only, not markup, punctuation, case, or the revision dates quoted in examples. */
export function normalizeSentence(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/\d{4}-\d{2}-\d{2}/g, 'yyyy-mm-dd')
    .replace(/[^a-z0-9/_-]+/g, ' ')
    .trim();
}

/**
 * `used` counts ids already given on the page: a sentence repeated on the same page gets `-2`, `-3`… in
 * document order. The context (a list lead-in) is part of the hash, since "Servers MUST: validate inputs" and
 * "Clients MUST: validate inputs" are different requirements with the same item text.
 */
export function statementId(
  pageKey: string,
  sentence: string,
  context: string | undefined,
  used: Map<string, number>,
): string {
  const hash = createHash('sha256')
    .update(normalizeSentence(sentence))
    .update(context === undefined ? '' : `\u0000${normalizeSentence(context)}`)
    .digest('hex')
    .slice(0, 8);
  const base = `${pageKey}-${hash}`;
  const count = (used.get(base) ?? 0) + 1;
  used.set(base, count);
  return count === 1 ? base : `${base}-${count}`;
}
