export { createEverythingServer, EVERYTHING_SERVER_INFO } from './server.js';
export {
  createProtectedServer,
  serveProtected,
  NOTES_READ,
  NOTES_WRITE,
  type ProtectedServing,
} from './protected.js';
