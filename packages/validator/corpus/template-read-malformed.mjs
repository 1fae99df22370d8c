// Breaks: the resources it lists are fine, but a resource reachable only through its template (test://corpus/items/{id}, values from completion) is read back with contents that hold neither text nor blob.
// expect: schema.response
// requirement: basic-d-schema-source-of-truth
import { main, resultResponse } from './_server.mjs';

main({
  request(message, ctx, next) {
    const uri = message.params?.uri;
    if (
      message.method === 'resources/read' &&
      typeof uri === 'string' &&
      uri.startsWith('test://corpus/items/')
    )
      return resultResponse(message.id, { contents: [{ uri, mimeType: 'text/plain' }] }, ctx);
    return next();
  },
});
