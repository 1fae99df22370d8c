// Breaks (MUST): the View's contents carry neither text nor blob.
// expect: apps.content
import { appServer } from './_app.mjs';

appServer({ content: ({ text: _text, ...item }) => item });
