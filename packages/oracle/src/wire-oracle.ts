/**
 * The wire oracle: is this message, sent by this side, valid under the official schema of this revision?
 */
import { isJsonObject, shapeOf, type JsonObject } from './message-shape.js';
import type { MethodCatalog, MethodKind } from './method-catalog.js';
import { isRevision, type Revision, type Side } from './revisions.js';
import type { SchemaDocument } from './schema-document.js';
import { SchemaRegistry, type RevisionSchema, type SchemaRegistryOptions } from './schema-registry.js';
import { NULL_ID_ERROR_CODES, TASK_AUGMENTABLE_METHODS } from './wire-rules.js';
import type { WireViolation } from './wire-violation.js';

export interface CheckContext {
  readonly revision: Revision;
  readonly sender: Side;
  /** For a response: the method of the request it answers, `undefined` if unknown. */
  readonly inReplyTo?: string;
  /**
   * For a response at 2025-11-25: whether the request asked for task augmentation (`params.task`), so that the
   * result must be a `CreateTaskResult`. When omitted, a `task` member in the result decides.
   */
  readonly taskAugmented?: boolean;
}

/** What went wrong, before it is dressed up as a `WireViolation`. */
interface Finding {
  readonly definition: string;
  readonly errors: string[];
}

export class WireOracle {
  readonly schemas: SchemaRegistry;

  constructor(options: SchemaRegistryOptions = {}) {
    this.schemas = new SchemaRegistry(options);
  }

  /** Validates one message, or a batch (an array) element by element. `null` means valid. */
  check(message: unknown, ctx: CheckContext): WireViolation | null {
    const schema = this.#schema(ctx.revision);
    const finding = Array.isArray(message)
      ? this.#batch(message, ctx, schema)
      : this.#single(message, ctx, schema);
    return finding && { revision: ctx.revision, sender: ctx.sender, message, ...finding };
  }

  /** Only the batch itself: may this revision have batches at all, and is this one well formed? */
  checkBatch(
    batch: readonly unknown[],
    ctx: Pick<CheckContext, 'revision' | 'sender'>,
  ): WireViolation | null {
    const finding = this.#batchShape(batch, this.#schema(ctx.revision));
    return finding && { revision: ctx.revision, sender: ctx.sender, message: batch, ...finding };
  }

  #schema(revision: Revision): RevisionSchema {
    if (!isRevision(revision)) throw new TypeError(`Unknown MCP revision ${JSON.stringify(revision)}`);
    return this.schemas.revision(revision);
  }

  #batch(batch: readonly unknown[], ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const shape = this.#batchShape(batch, schema);
    if (shape) return shape;
    // Which request each response answers is not known here; WireTap, which tracks ids, does better.
    const elementCtx: CheckContext = { revision: ctx.revision, sender: ctx.sender };
    let definition: string | undefined;
    const errors: string[] = [];
    batch.forEach((element, index) => {
      const finding = this.#single(element, elementCtx, schema);
      if (!finding) return;
      definition ??= finding.definition;
      errors.push(...finding.errors.map((error) => `[${index}] ${error}`));
    });
    return definition === undefined ? null : { definition, errors };
  }

  #batchShape(batch: readonly unknown[], schema: RevisionSchema): Finding | null {
    const definition = 'JSONRPCMessage';
    if (!schema.allowsBatches) {
      return { definition, errors: [`JSON-RPC batches (arrays) are not part of ${schema.revision}`] };
    }
    if (batch.length === 0) return { definition, errors: ['an empty batch is invalid (JSON-RPC 2.0 §6)'] };
    const kinds = new Set(batch.map((element) => shapeOf(element)));
    const calls = kinds.has('request') || kinds.has('notification');
    const responses = kinds.has('result') || kinds.has('error');
    if (calls && responses) {
      return { definition, errors: ['a batch holds requests and notifications, or responses, never both'] };
    }
    return null;
  }

  #single(message: unknown, ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const shape = shapeOf(message);
    if (shape === undefined || !isJsonObject(message)) return this.#shapeless(message, schema);
    const envelope = schema.envelopes[shape];
    if (shape === 'error') return this.#error(message, ctx, schema);
    const envelopeFinding = validate(schema.document, envelope, message);
    if (envelopeFinding) return envelopeFinding;
    return shape === 'result'
      ? this.#result(message, ctx, schema)
      : this.#method(shape, message, ctx, schema);
  }

  #shapeless(message: unknown, schema: RevisionSchema): Finding {
    const reason = isJsonObject(message)
      ? 'not a request (no method), nor a response (exactly one of result and error)'
      : 'not a JSON object';
    return {
      definition: 'JSONRPCMessage',
      errors: [reason, ...schema.document.validate('JSONRPCMessage', message)],
    };
  }

  /** A request or notification: its method must be one the sender may send in this revision. */
  #method(kind: MethodKind, message: JsonObject, ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const method = message['method'] as string; // the envelope checked it is a string
    const core = schema.methods.definitionFor(kind, ctx.sender, method);
    if (core !== undefined) return validate(schema.document, core, message);

    const tasks = schema.rules.tasksExtension ? this.schemas.tasksExtension() : undefined;
    const extension = tasks?.definitionFor(kind, ctx.sender, method);
    if (tasks && extension !== undefined) {
      const finding = validate(tasks.document, extension, message);
      // An extension request is still a request of the core protocol, and every 2026-07-28 request carries the
      // `_meta` that the core's `RequestParams` requires (basic/index.mdx); the extension's definitions omit it.
      if (finding || kind !== 'request') return finding;
      return validate(schema.document, 'RequestParams', message['params'], '/params');
    }

    const otherSenders = [
      ...schema.methods.sendersOf(kind, method),
      ...(tasks?.sendersOf(kind, method) ?? []),
    ];
    const hint = otherSenders.length > 0 ? ` (only the ${otherSenders[0]} sends it)` : '';
    return {
      definition: schema.methods.unionName(kind, ctx.sender),
      errors: [
        `/method ${JSON.stringify(method)} is not a ${ctx.sender} ${kind} in ${schema.revision}${hint}`,
      ],
    };
  }

  #result(message: JsonObject, ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const result = message['result'] as JsonObject; // the envelope checked it is an object
    const { inReplyTo } = ctx;
    if (schema.requiresResultType) return this.#polymorphicResult(result, ctx, schema);

    // 2025-11-25 task augmentation: a request that carried `task` is answered by a CreateTaskResult.
    if (inReplyTo !== undefined && schema.methods.acceptsTask(inReplyTo)) {
      if (ctx.taskAugmented ?? Object.hasOwn(result, 'task')) {
        return validate(schema.document, 'CreateTaskResult', result, '/result');
      }
    }
    const definition = inReplyTo === undefined ? undefined : schema.methods.resultDefinitionFor(inReplyTo);
    return validate(schema.document, definition ?? schema.genericResult(ctx.sender), result, '/result');
  }

  /**
   * 2026-07-28 on: `resultType` picks the definition. The schema types it as a bare string, so an input-required
   * result would otherwise match almost any result definition.
   */
  #polymorphicResult(result: JsonObject, ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const resultType = result['resultType'];
    const tasks = schema.rules.tasksExtension ? this.schemas.tasksExtension() : undefined;
    if (resultType === 'complete') return this.#completeResult(result, ctx, schema, tasks);
    if (resultType === 'input_required') return this.#inputRequired(result, ctx.inReplyTo, schema);
    if (resultType === 'task' && tasks) return this.#taskResult(result, ctx.inReplyTo, tasks);
    // A missing resultType already failed the envelope, whose `result` is a `Result`.
    const known = ['complete', 'input_required', ...(tasks ? ['task'] : [])].join(', ');
    return {
      definition: 'Result',
      errors: [`/result/resultType ${JSON.stringify(resultType)} is none of ${known} (${schema.revision})`],
    };
  }

  #completeResult(
    result: JsonObject,
    { inReplyTo, sender }: CheckContext,
    schema: RevisionSchema,
    tasks: MethodCatalog | undefined,
  ): Finding | null {
    const core = inReplyTo === undefined ? undefined : schema.methods.resultDefinitionFor(inReplyTo);
    const extension = inReplyTo === undefined ? undefined : tasks?.resultDefinitionFor(inReplyTo);
    const finding =
      core === undefined && tasks && extension !== undefined
        ? validate(tasks.document, extension, result, '/result')
        : validate(schema.document, core ?? schema.genericResult(sender), result, '/result');
    if (finding || inReplyTo === undefined || !schema.rules.cacheableMethods.has(inReplyTo)) return finding;
    return validate(schema.document, 'CacheableResult', result, '/result');
  }

  /** The tasks extension's `CreateTaskResult`, which only task-augmentable requests may get. */
  #taskResult(result: JsonObject, inReplyTo: string | undefined, tasks: MethodCatalog): Finding | null {
    if (inReplyTo !== undefined && !TASK_AUGMENTABLE_METHODS.has(inReplyTo)) {
      const allowed = [...TASK_AUGMENTABLE_METHODS].join(', ');
      return {
        definition: tasks.document.label('CreateTaskResult'),
        errors: [`/result/resultType "task" may answer only ${allowed} (tasks extension), not ${inReplyTo}`],
      };
    }
    return validate(tasks.document, 'CreateTaskResult', result, '/result');
  }

  /** Multi round-trip requests (basic/patterns/mrtr.mdx): two MUSTs the JSON Schema leaves to the prose. */
  #inputRequired(result: JsonObject, inReplyTo: string | undefined, schema: RevisionSchema): Finding | null {
    const definition = 'InputRequiredResult';
    if (inReplyTo !== undefined && !schema.methods.admitsInputRequired(inReplyTo)) {
      return { definition, errors: [`/result/resultType "input_required" must not answer ${inReplyTo}`] };
    }
    const finding = validate(schema.document, definition, result, '/result');
    if (finding || 'inputRequests' in result || 'requestState' in result) return finding;
    return { definition, errors: ['/result must carry inputRequests or requestState (at least one)'] };
  }

  #error(message: JsonObject, ctx: CheckContext, schema: RevisionSchema): Finding | null {
    const envelope = schema.envelopes.error;
    const error = message['error'];
    const code = isJsonObject(error) ? error['code'] : undefined;
    // The schemas from 2025-11-25 on make `id` optional on errors, but JSON-RPC 2.0 §5 requires the member.
    if (!('id' in message)) {
      return { definition: envelope, errors: ["/ must have required property 'id' (JSON-RPC 2.0 §5)"] };
    }
    // JSON-RPC 2.0 §5: a request whose id could not be read (parse error, invalid request) is answered with
    // `"id": null`. No MCP schema admits null as an id, so for exactly those two codes the rest of the envelope
    // is validated as if the id had been readable. Every other error must echo the request's id.
    const nullIdAllowed = message['id'] === null && typeof code === 'number' && NULL_ID_ERROR_CODES.has(code);
    const subject = nullIdAllowed ? { ...message, id: 0 } : message;
    const envelopeFinding = validate(schema.document, envelope, subject);
    if (envelopeFinding) {
      if (message['id'] === null) {
        envelopeFinding.errors.unshift(
          `/id is null, which only ${[...NULL_ID_ERROR_CODES].join(' and ')} may carry`,
        );
      }
      return envelopeFinding;
    }
    if (typeof code !== 'number') return null; // unreachable: the envelope requires an integer code

    if (schema.rules.forbiddenErrorCodes.has(code)) {
      return {
        definition: envelope,
        errors: [`/error/code ${code} must not be emitted in ${schema.revision}`],
      };
    }
    const definition = schema.errorDefinitionFor(code);
    if (definition === undefined) {
      const reserved = schema.rules.reservedErrorCodes;
      if (reserved && code >= reserved.from && code <= reserved.to) {
        const errors = [
          `/error/code ${code} is reserved for the specification, which does not define it in ${schema.revision}`,
        ];
        return { definition: envelope, errors };
      }
      return null;
    }
    return definition.scope === 'response'
      ? validate(schema.document, definition.definition, subject)
      : validate(schema.document, definition.definition, error, '/error');
  }
}

function validate(
  document: SchemaDocument,
  definition: string,
  data: unknown,
  pathPrefix = '',
): Finding | null {
  const errors = document.validate(definition, data, pathPrefix);
  return errors.length === 0 ? null : { definition: document.label(definition), errors };
}

let shared: WireOracle | undefined;

/** One oracle per process, so that every test shares the compiled schemas. */
export function defaultOracle(): WireOracle {
  return (shared ??= new WireOracle());
}
