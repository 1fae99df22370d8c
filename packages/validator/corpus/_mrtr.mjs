// A tool that asks for confirmation through a multi round-trip request (2026-07-28), for the MRTR corpus
// entries. `confirmTool()` behaves correctly; each flag breaks one requirement of the MRTR pattern.
import { createHmac, randomBytes } from 'node:crypto';
import { errorResponse, resultResponse, SERVER_INFO } from './_server.mjs';

const KEY = randomBytes(32);
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

export const CONFIRM_TOOL = {
  name: 'confirm',
  description: 'Asks the user to confirm, then reports the answer',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
};

const ELICITATION = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Proceed?',
    requestedSchema: {
      type: 'object',
      properties: { ok: { type: 'boolean', description: 'Whether to proceed' } },
      required: ['ok'],
    },
  },
};

function sign(payload) {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`;
}

function verify(state) {
  const [body, mac] = state.split('.');
  if (body === undefined || mac === undefined) return false;
  return createHmac('sha256', KEY).update(body).digest('base64url') === mac;
}

/**
 * flaws: `acceptTamperedState` (no integrity check), `askUndeclared` (asks for elicitation from a client that did
 * not declare it), `refusalWithoutData` (-32021 without data.requiredCapabilities), `errorOnMissing` (an error
 * instead of asking again when the input is missing).
 */
export function confirmTool(flaws = {}) {
  return (name, _args, ctx, id, params) => {
    if (name !== CONFIRM_TOOL.name) return undefined;
    const ok = (result) => resultResponse(id, result, ctx);
    const fail = (code, message, data) => errorResponse(id, code, message, data);
    // Before 2026-07-28 elicitation is a server request; this tool keeps it simple there.
    if (!ctx.modern) return ok({ content: [{ type: 'text', text: 'confirmed' }] });
    const ask = () => ({
      jsonrpc: '2.0',
      id,
      result: {
        resultType: 'input_required',
        inputRequests: { confirm: ELICITATION },
        requestState: sign({ tool: name, at: Date.now() }),
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
    const declared = isObject(ctx.clientCapabilities) && isObject(ctx.clientCapabilities.elicitation);
    if (!declared && !flaws.askUndeclared) {
      return flaws.refusalWithoutData
        ? fail(-32021, 'Missing required client capability: elicitation')
        : fail(-32021, 'Missing required client capability: elicitation', {
            requiredCapabilities: { elicitation: {} },
          });
    }
    const { inputResponses, requestState } = params;
    if (inputResponses === undefined && requestState === undefined) return ask();
    if (!isObject(inputResponses)) return fail(-32602, 'Invalid params: inputResponses must be an object');
    if (typeof requestState !== 'string' || (!flaws.acceptTamperedState && !verify(requestState))) {
      return fail(-32602, 'Invalid params: requestState failed verification');
    }
    const answer = inputResponses.confirm;
    if (!isObject(answer))
      return flaws.errorOnMissing ? fail(-32602, 'Invalid params: the confirmation is missing') : ask();
    if (answer.action !== 'accept')
      return ok({ content: [{ type: 'text', text: `not confirmed (${String(answer.action)})` }] });
    return ok({
      content: [{ type: 'text', text: answer.content?.ok === false ? 'the user said no' : 'confirmed' }],
    });
  };
}
