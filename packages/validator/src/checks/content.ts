/**
 * Content blocks, wherever they appear (tool results, prompt messages, resource contents): binary data must be
 * base64 with a MIME type, and structured content must match its schema.
 */
import type { Evidence } from '../outcomes.js';
import { isObject, type JsonObject } from '@mcpengine/wire';
import { defineCheck } from './registry.js';

export const CONTENT_BASE64 = defineCheck(
  'content.base64',
  'tools',
  'Binary content (image, audio, blob) is base64-encoded and carries a MIME type',
  { facets: ['image-data', 'image-mime', 'audio-data', 'audio-mime', 'blob'] },
);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIME = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;.*)?$/i;

export function isBase64(text: string): boolean {
  return BASE64.test(text.replace(/\s+/g, ''));
}

export function isMimeType(value: unknown): boolean {
  return typeof value === 'string' && MIME.test(value);
}

/** One thing wrong with binary content, and the facet of content.base64 it breaks. */
export interface ContentProblem {
  readonly text: string;
  readonly facet: string;
}

/** Problems with the binary parts of a list of content blocks (or resource contents). */
export function binaryProblems(blocks: readonly unknown[], where: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  blocks.forEach((block, index) => {
    if (!isObject(block)) return;
    const at = `${where}[${index}]`;
    const kind = block['type'];
    if (kind === 'image' || kind === 'audio') {
      if (typeof block['data'] !== 'string' || !isBase64(block['data']))
        problems.push({ text: `${at}: ${kind} data is not base64`, facet: `${kind}-data` });
      if (!isMimeType(block['mimeType']))
        problems.push({ text: `${at}: ${kind} has no valid MIME type`, facet: `${kind}-mime` });
    }
    if (kind === 'resource' && isObject(block['resource'])) {
      problems.push(...resourceContentProblems([block['resource']], `${at}.resource`));
    }
  });
  return problems;
}

export function resourceContentProblems(contents: readonly unknown[], where: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  contents.forEach((content, index) => {
    if (!isObject(content)) return;
    if (typeof content['blob'] === 'string' && !isBase64(content['blob']))
      problems.push({ text: `${where}[${index}]: blob is not base64`, facet: 'blob' });
  });
  return problems;
}

/** Fails `check` with the problems (their texts joined, their facets named); nothing when there are none. */
export function failProblems(
  ctx: {
    fail(check: string, message: string, evidence: readonly Evidence[], facets?: readonly string[]): void;
  },
  check: string,
  problems: readonly ContentProblem[],
  evidence: readonly Evidence[],
): void {
  if (problems.length === 0) return;
  ctx.fail(
    check,
    problems.map((p) => p.text).join('; '),
    evidence,
    problems.map((p) => p.facet),
  );
}

/** The text blocks of a content list. */
export function textBlocks(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter(isObject)
    .filter((b: JsonObject) => b['type'] === 'text' && typeof b['text'] === 'string')
    .map((b) => b['text'] as string);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, index) => deepEqual(value, other[index]));
  }
  const left = a as JsonObject;
  const right = b as JsonObject;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]))
  );
}
