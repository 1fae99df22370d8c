// Breaks (MUST): the View is an HTML fragment, not an HTML5 document (no doctype).
// expect: apps.html5
import { appServer } from './_app.mjs';

appServer({ html: '<div>Hello from a fragment</div>' });
