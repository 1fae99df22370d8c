/**
 * Values a server needs from the user (a registry `server.json`'s environment variables, headers, arguments and
 * URL variables). Each is answered, in order, by a command-line flag, by the file's fixed value, by a reference
 * (secrets: never asked, written as `${NAME}` for the client to resolve), by its default under `--yes`, or by a
 * prompt on a terminal. Without a terminal nothing is asked: every unanswered value is listed, with the flag that
 * supplies it, and the command fails.
 */
import { InstallerError } from '../model.js';
import { parseTemplate, type Template } from '../template.js';

export interface Question {
  /** How the user supplies it, e.g. `--env API_KEY=<value>`. */
  readonly flag: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  readonly secret: boolean;
  readonly default?: string;
  readonly choices?: readonly string[];
  readonly format?: string;
  /** The variable a secret is referred to by. */
  readonly reference?: string;
}

/** Asks one question on a terminal; resolves with the answer ("" for none). */
export type Prompter = (question: Question) => Promise<string>;

export interface AnswerSource {
  readonly yes: boolean;
  readonly prompt?: Prompter;
}

/** Collects what could not be answered, so that all of it is reported at once. */
export class Answers {
  readonly missing: Question[] = [];
  readonly notes: string[] = [];

  constructor(private readonly source: AnswerSource) {}

  /** The value for `question`: `given` (a flag), else per the rules above; undefined when skipped or missing. */
  async answer(question: Question, given: string | undefined): Promise<Template | undefined> {
    if (given !== undefined) return this.#checked(question, given);
    if (question.secret) {
      const name = question.reference ?? question.label;
      this.notes.push(
        `${question.label} is written as a reference to \${${name}}: set ${name} where the client runs`,
      );
      return [{ env: name, secret: true }];
    }
    if (question.default !== undefined && this.source.yes) return [question.default];
    if (!question.required && question.default === undefined) return undefined;
    if (this.source.prompt !== undefined && question.required) {
      const text = await this.source.prompt(question);
      const value = text === '' ? question.default : text;
      if (value !== undefined && value !== '') return this.#checked(question, value);
    }
    if (!question.required) return undefined;
    this.missing.push(question);
    return undefined;
  }

  #checked(question: Question, value: string): Template {
    if (question.choices !== undefined && question.choices.length > 0 && !question.choices.includes(value))
      throw new InstallerError(
        `${question.label} must be one of ${question.choices.join(', ')}, got ${JSON.stringify(value)}`,
      );
    if (question.format === 'number' && !/^-?\d+(\.\d+)?$/.test(value))
      throw new InstallerError(`${question.label} must be a number, got ${JSON.stringify(value)}`);
    if (question.format === 'boolean' && value !== 'true' && value !== 'false')
      throw new InstallerError(`${question.label} must be true or false, got ${JSON.stringify(value)}`);
    try {
      return parseTemplate(value, question.secret);
    } catch (error) {
      throw new InstallerError(`${question.label}: ${(error as Error).message}`);
    }
  }

  /** Throws the list of missing values, if any. */
  check(): void {
    if (this.missing.length === 0) return;
    const lines = this.missing.map((question) => {
      const extra = [
        question.description,
        question.default === undefined ? undefined : `default ${question.default}: --yes takes it`,
        question.choices === undefined ? undefined : `one of ${question.choices.join(', ')}`,
      ].filter((part) => part !== undefined && part !== '');
      return `  ${question.flag}${extra.length === 0 ? '' : `   (${extra.join('; ')})`}`;
    });
    throw new InstallerError(
      `missing values (not asked: no terminal${this.source.yes ? '' : ', and no --yes for defaults'}):\n${lines.join('\n')}`,
    );
  }
}
