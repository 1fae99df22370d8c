/**
 * Normative statements: the sentences of a spec page that carry an RFC 2119 keyword in capitals.
 */
import type { TextBlock } from './markdown.js';

export const KEYWORDS = [
  'MUST NOT',
  'MUST',
  'SHALL NOT',
  'SHALL',
  'REQUIRED',
  'SHOULD NOT',
  'SHOULD',
  'NOT RECOMMENDED',
  'RECOMMENDED',
  'MAY',
  'OPTIONAL',
] as const;
export type Keyword = (typeof KEYWORDS)[number];

/** The three strengths of RFC 2119 (RFC 8174: only in capitals). */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

const STRENGTH: Record<Keyword, Level> = {
  'MUST NOT': 'MUST',
  MUST: 'MUST',
  'SHALL NOT': 'MUST',
  SHALL: 'MUST',
  REQUIRED: 'MUST',
  'SHOULD NOT': 'SHOULD',
  SHOULD: 'SHOULD',
  'NOT RECOMMENDED': 'SHOULD',
  RECOMMENDED: 'SHOULD',
  MAY: 'MAY',
  OPTIONAL: 'MAY',
};
const RANK: Record<Level, number> = { MUST: 0, SHOULD: 1, MAY: 2 };

const KEYWORD_PATTERN = new RegExp(`\\b(${KEYWORDS.map((k) => k.replace(' ', '\\s+')).join('|')})\\b`, 'g');

export function keywordsOf(sentence: string): Keyword[] {
  return [...sentence.matchAll(KEYWORD_PATTERN)].map((m) => m[1]!.replace(/\s+/g, ' ') as Keyword);
}

export function levelOf(keyword: Keyword): Level {
  return STRENGTH[keyword];
}

/** The strongest keyword of a sentence: it decides the statement's level. */
export function strongest(keywords: readonly Keyword[]): Keyword {
  return [...keywords].sort((a, b) => RANK[STRENGTH[a]] - RANK[STRENGTH[b]])[0]!;
}

const ABBREVIATIONS = /\b(e\.g|i\.e|etc|vs|cf|approx|Dr|Mr|Ms|No)\.$/;

/** Splits prose into sentences without breaking `e.g.`, version numbers or `file.txt`. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const boundary = /[.!?]["')\]]?\s+(?=["'([]?[A-Z0-9`_-])/g;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].trimEnd().length;
    const candidate = text.slice(start, end);
    if (ABBREVIATIONS.test(candidate)) continue;
    sentences.push(candidate.trim());
    start = match.index + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

/** Sentences that only make sense with the one before them. */
const ANAPHORIC = /^(This|It|These|That|Those|Such|They|Otherwise|In this case|In that case|If so|Then)\b/;

export interface RawStatement {
  readonly headings: readonly string[];
  readonly anchor: string;
  readonly sentence: string;
  /** The text a sentence depends on: the list's lead-in, or the sentence before an anaphoric one. */
  readonly context?: string;
  readonly keywords: readonly Keyword[];
}

export function normativeStatements(blocks: readonly TextBlock[]): RawStatement[] {
  const out: RawStatement[] = [];
  blocks.forEach((block, index) => {
    const sentences = splitSentences(block.text);
    const next = blocks[index + 1];
    const introducesList =
      next?.kind === 'item' &&
      next.leadIn !== undefined &&
      next.leadIn === block.text &&
      block.text.endsWith(':');
    const leadSentence = block.leadIn === undefined ? undefined : splitSentences(block.leadIn).at(-1);
    const blockHasKeyword = keywordsOf(block.text).length > 0;

    if (block.kind === 'item' && !blockHasKeyword && leadSentence !== undefined) {
      // "Servers MUST:" followed by items without keywords: each item is one requirement.
      const keywords = keywordsOf(leadSentence);
      if (keywords.length > 0 && leadSentence.endsWith(':')) {
        out.push({
          headings: block.headings,
          anchor: block.anchor,
          sentence: `${leadSentence} ${block.text}`,
          keywords,
        });
      }
      return;
    }

    sentences.forEach((sentence, position) => {
      const keywords = keywordsOf(sentence);
      if (keywords.length === 0) return;
      // A lead-in whose list carries the requirement is emitted with each item instead.
      if (introducesList && position === sentences.length - 1) return;
      const previous = sentences[position - 1];
      let context: string | undefined;
      if (block.kind === 'item' && position === 0 && leadSentence !== undefined) context = leadSentence;
      else if (previous !== undefined && ANAPHORIC.test(sentence)) context = previous;
      out.push({
        headings: block.headings,
        anchor: block.anchor,
        sentence,
        keywords,
        ...(context === undefined ? {} : { context }),
      });
    });
  });
  return out;
}
