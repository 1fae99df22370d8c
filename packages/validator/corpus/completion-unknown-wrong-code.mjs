// Breaks a SHOULD only: completion/complete for an unknown prompt is rejected, but with -32603 instead of -32602.
// "Implementations MUST: Validate all completion inputs" holds (the input is rejected); the code comes from
// "Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid prompt name: -32602".
// expect: completion.unknown-reference
// requirement: completion-762c6b61
// verdict: pass
import { main } from './_server.mjs';

main({
  request(message, _ctx, next) {
    if (
      message.method === 'completion/complete' &&
      message.params?.ref?.name === 'validator_no_such_prompt_7f3a'
    )
      return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'no such prompt' } };
    return next();
  },
});
