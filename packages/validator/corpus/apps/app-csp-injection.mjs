// Breaks (MUST): a CSP domain that is not an origin: it would end the directive and add its own (CSP injection).
// expect: apps.csp-origins
import { appServer } from './_app.mjs';

appServer({ csp: { connectDomains: ["https://api.example.com; script-src 'unsafe-eval' *"] } });
