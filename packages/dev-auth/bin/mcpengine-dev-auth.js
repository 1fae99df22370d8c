#!/usr/bin/env node
// A committed entry point, so that npm links the bin on a fresh `npm ci` before the build has run.
await import('../dist/main.js');
