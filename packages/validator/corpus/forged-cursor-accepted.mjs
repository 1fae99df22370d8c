// Breaks (SHOULD): a forged cursor is accepted (it should be -32602).
// expect: pagination.invalid-cursor
// requirement: pagination-9925247e
import { main } from './_server.mjs';

main({
  request(message, _ctx, next) {
    if (message.method.endsWith('/list') && message.params?.cursor !== undefined) {
      const params = { ...message.params };
      delete params.cursor;
      return next({ ...message, params });
    }
    return next();
  },
});
