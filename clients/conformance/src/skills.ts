/**
 * A host's side of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`), as far as the
 * conformance scenarios exercise it: list skills without fetching their files, and, when a skill is loaded,
 * verify every file read against its entry (byte size, `sha256:` digest) and the SKILL.md frontmatter against
 * the entry's, field by field. Unverified content is never used.
 */
import { createHash } from 'node:crypto';
import type { ClientSession } from 'mcpengine/client';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export interface SkillFile {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly SkillFile[];
}

/** A skill file failed verification: it must not be used. */
export class SkillVerificationError extends Error {
  readonly check: 'size' | 'digest' | 'frontmatter' | 'missing';

  constructor(check: SkillVerificationError['check'], message: string) {
    super(message);
    this.name = 'SkillVerificationError';
    this.check = check;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `skills/list`: the entries only. Listing never reads a skill's files. */
export async function listSkills(client: ClientSession): Promise<SkillEntry[]> {
  const result = await client.request('skills/list', {});
  const skills = Array.isArray(result.skills) ? result.skills : [];
  return skills.filter(
    (entry): entry is SkillEntry =>
      isObject(entry) &&
      typeof entry.uri === 'string' &&
      isObject(entry.frontmatter) &&
      Array.isArray(entry.resources) &&
      entry.resources.every(
        (file) =>
          isObject(file) &&
          typeof file.uri === 'string' &&
          typeof file.digest === 'string' &&
          typeof file.size === 'number',
      ),
  );
}

/** Reads one file of a skill and verifies it against the entry: size first, then digest. */
export async function readVerified(client: ClientSession, entry: SkillEntry, uri: string): Promise<string> {
  const file = entry.resources.find((candidate) => candidate.uri === uri);
  if (!file) throw new SkillVerificationError('missing', `${uri} is not listed in the entry of ${entry.uri}`);
  const result = await client.readResource({ uri });
  const content = result.contents.find((item) => item.uri === uri) ?? result.contents[0];
  let bytes: Buffer;
  if (content && 'text' in content && typeof content.text === 'string')
    bytes = Buffer.from(content.text, 'utf8');
  else if (content && 'blob' in content && typeof content.blob === 'string')
    bytes = Buffer.from(content.blob, 'base64');
  else throw new SkillVerificationError('missing', `${uri} came back without content`);
  if (bytes.byteLength !== file.size) {
    throw new SkillVerificationError(
      'size',
      `${uri} is ${bytes.byteLength} bytes, but its entry says ${file.size}`,
    );
  }
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== file.digest.toLowerCase()) {
    throw new SkillVerificationError(
      'digest',
      `${uri} has digest ${digest}, but its entry says ${file.digest}`,
    );
  }
  return bytes.toString('utf8');
}

/**
 * The YAML frontmatter of a SKILL.md: the block between a leading `---` line and the next `---` line. Only flat
 * `key: value` scalars are read (plain, single- or double-quoted), which is what skill frontmatter holds; any
 * other line is a verification failure rather than a guess.
 */
export function parseFrontmatter(markdown: string): Record<string, string> {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0] !== '---')
    throw new SkillVerificationError('frontmatter', 'SKILL.md does not start with frontmatter');
  const end = lines.indexOf('---', 1);
  if (end === -1) throw new SkillVerificationError('frontmatter', 'SKILL.md frontmatter is not closed');
  const fields: Record<string, string> = {};
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z0-9_-]+):\s*(.*?)\s*$/.exec(line);
    if (!match)
      throw new SkillVerificationError('frontmatter', `Unsupported frontmatter line ${JSON.stringify(line)}`);
    const [, key = '', raw = ''] = match;
    let value = raw;
    if (/^".*"$/.test(raw)) value = JSON.parse(raw) as string;
    else if (/^'.*'$/.test(raw)) value = raw.slice(1, -1).replace(/''/g, "'");
    fields[key] = value;
  }
  return fields;
}

/** Compares the SKILL.md frontmatter with the entry's, both ways: any difference refuses the skill. */
export function compareFrontmatter(entry: SkillEntry, parsed: Readonly<Record<string, string>>): void {
  const keys = new Set([...Object.keys(entry.frontmatter), ...Object.keys(parsed)]);
  for (const key of keys) {
    const listed = entry.frontmatter[key];
    const actual = parsed[key];
    if (listed !== actual) {
      throw new SkillVerificationError(
        'frontmatter',
        `Frontmatter field ${JSON.stringify(key)} is ${JSON.stringify(actual)} in SKILL.md but ${JSON.stringify(listed)} in the entry`,
      );
    }
  }
}

/** Loads a skill: reads and verifies its SKILL.md (files, then frontmatter). Throws on any discrepancy. */
export async function loadSkill(client: ClientSession, entry: SkillEntry): Promise<string> {
  const markdown = await readVerified(client, entry, entry.uri);
  compareFrontmatter(entry, parseFrontmatter(markdown));
  return markdown;
}
