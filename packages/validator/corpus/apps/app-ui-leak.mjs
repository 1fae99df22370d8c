// Breaks (SHOULD): UI metadata goes to clients that did not advertise the UI extension, in both eras.
// expect: apps.negotiation
import { appServer } from './_app.mjs';

appServer({ alwaysUi: true });
