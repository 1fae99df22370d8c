// Breaks (SHOULD): the View loads a script and a style sheet from an origin its CSP does not declare.
// expect: apps.remote-assets-declared
import { appServer, viewHtml } from './_app.mjs';

appServer({
  html: viewHtml(
    '<script src="https://cdn.example.com/lib.js"></script><link rel="stylesheet" href="https://cdn.example.com/lib.css">',
  ),
});
