export { createEverythingServer, EVERYTHING_SERVER_INFO } from './server.js';
