// Breaks (MUST): the resource's _meta.ui.prefersBorder is a string, not a boolean.
// expect: apps.resource-meta
import { appServer } from './_app.mjs';

appServer({ uiMeta: { prefersBorder: 'yes' } });
