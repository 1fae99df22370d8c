// Breaks: an unauthenticated request gets 401 without a WWW-Authenticate Bearer challenge.
// expect: auth.unauthorized-challenge
// requirement: authorization-017972a0
// transport: http
// bearer: corpus-token
// revisions: 2025-06-18
import { requireToken } from './_auth.mjs';
import { main } from './_server.mjs';

main({ revisions: ['2025-06-18'], http: requireToken({ noChallenge: true }) });
