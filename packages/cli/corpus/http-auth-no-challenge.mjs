// Breaks: an unauthenticated request gets 401 without a WWW-Authenticate Bearer challenge.
// expect: auth.unauthorized-challenge, auth.challenge-scope
// transport: http
// bearer: corpus-token
// revisions: 2025-11-25
import { requireToken } from './_auth.mjs';
import { main } from './_server.mjs';

main({ revisions: ['2025-11-25'], http: requireToken({ noChallenge: true }) });
