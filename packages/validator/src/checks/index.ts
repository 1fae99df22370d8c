/**
 * Every probe, in the order a revision runs them: handshake first, feature probes next, passive judges last
 * (they read what the others produced).
 */
import { authProbe } from './auth.js';
import { httpLegacyProbe, httpModernProbe, sseProbe } from './http.js';
import {
  batchProbe,
  duplicateIdProbe,
  invalidRequestProbe,
  methodNotFoundProbe,
  parseErrorProbe,
} from './jsonrpc.js';
import {
  legacyHandshake,
  legacySessionBasics,
  modernHandshake,
  modernMissingMeta,
  negotiatedCapabilities,
} from './lifecycle.js';
import { legacyClientFeaturesProbe, mrtrProbe, subscriptionsProbe } from './modern.js';
import { responseIdsProbe } from './passive.js';
import type { Probe } from './probe.js';
import { cancellationProbe, progressProbe } from './progress.js';
import { promptsProbe } from './prompts.js';
import { resourcesProbe } from './resources.js';
import { securityProbe } from './security.js';
import { stdioExitProbe, stdioOutputProbe } from './stdio.js';
import { tasksProbe } from './tasks.js';
import { toolsProbe } from './tools.js';
import {
  completionProbe,
  gatingProbe,
  loggingLevelProbe,
  loggingOptInProbe,
  loggingProbe,
  paginationProbe,
  passiveNotificationsProbe,
} from './utilities.js';

export const PROBES: readonly Probe[] = [
  legacyHandshake,
  modernHandshake,
  modernMissingMeta,
  legacySessionBasics,
  authProbe,
  parseErrorProbe,
  invalidRequestProbe,
  methodNotFoundProbe,
  duplicateIdProbe,
  batchProbe,
  gatingProbe,
  toolsProbe,
  resourcesProbe,
  promptsProbe,
  completionProbe,
  loggingProbe,
  loggingLevelProbe,
  paginationProbe,
  progressProbe,
  tasksProbe,
  mrtrProbe,
  legacyClientFeaturesProbe,
  subscriptionsProbe,
  securityProbe,
  // Late in the shared lane: its watch of a tool cancelled in flight overlaps the probes before it.
  cancellationProbe,
  httpLegacyProbe,
  httpModernProbe,
  sseProbe,
  stdioExitProbe,
  loggingOptInProbe,
  passiveNotificationsProbe,
  responseIdsProbe,
  stdioOutputProbe,
  negotiatedCapabilities,
];
