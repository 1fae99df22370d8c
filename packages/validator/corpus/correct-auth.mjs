// A correct server that requires a bearer token on Streamable HTTP: the validator, given the token, must report
// no failure and no warning.
// transport: http
// bearer: corpus-token
import { requireToken } from './_auth.mjs';
import { main } from './_server.mjs';

main({ http: requireToken() });
