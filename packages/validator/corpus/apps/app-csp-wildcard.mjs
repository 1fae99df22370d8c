// Breaks (advisory): a wildcard CSP domain (allowed by the spec, but hosts may refuse it).
// expect: apps.csp-wildcards
import { appServer } from './_app.mjs';

appServer({ csp: { resourceDomains: ['https://*.example.com'] } });
