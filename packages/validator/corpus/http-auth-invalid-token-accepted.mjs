// Breaks: a request with an invalid bearer token is served (it must get 401).
// expect: auth.invalid-token
// requirement: authorization-684b6f28
// transport: http
// bearer: corpus-token
// revisions: 2025-11-25
import { requireToken } from './_auth.mjs';
import { main } from './_server.mjs';

main({ revisions: ['2025-11-25'], http: requireToken({ acceptAnyToken: true }) });
