/**
 * The curated Twilio server: Messaging and Calls from API v2010, Verify and Lookup from their own descriptions
 * (src/custom/products/, see scripts/products.sh). Thirteen tools are listed, named and described for models;
 * the other 186 operations of API v2010 stay reachable behind discover_tools / call_operation (progressive
 * disclosure). The account SID is filled into every path from TWILIO_ACCOUNT_SID, so a model never passes it.
 * list_messages opens the message log view (an MCP App: src/custom/message-log.ts, view/).
 * Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Exposure } from '../runtime/register.js';
import { registerMessageLog } from './message-log.js';
import { tools as lookupTools } from './products/lookupsv2phonenumber.js';
import { tools as verifyServiceTools } from './products/verifyv2service.js';
import { tools as verificationTools } from './products/verifyv2verification.js';
import { tools as verificationCheckTools } from './products/verifyv2verificationcheck.js';

export interface Customization {
  /** Adjust or drop (return undefined) a generated tool: rename it, rewrite its description, … */
  readonly tool?: (tool: OperationTool) => OperationTool | undefined;
  /** Register hand-written tools, resources or prompts next to the generated ones. */
  readonly extend?: (server: McpServer, caller: OperationCaller) => void;
  /** Timeouts, retries, size limits (see RuntimeOptions). */
  readonly runtime?: RuntimeOptions;
  /** List every operation, or groups behind a discovery tool (default: groups above 40 operations). */
  readonly expose?: Exposure;
  readonly instructions?: string;
}

const env = process.env;

/** The variables Twilio users know, mapped onto the scheme variables of the description. */
function credentials(): Record<string, string | undefined> {
  const apiKey = env['TWILIO_API_KEY'];
  return {
    ...env,
    TWILIO_ACCOUNTSID_AUTHTOKEN_USERNAME: apiKey ?? env['TWILIO_ACCOUNT_SID'],
    TWILIO_ACCOUNTSID_AUTHTOKEN_PASSWORD:
      apiKey !== undefined ? env['TWILIO_API_SECRET'] : env['TWILIO_AUTH_TOKEN'],
  };
}

function accountSid(): string {
  const sid = env['TWILIO_ACCOUNT_SID'];
  if (sid === undefined || sid === '')
    throw new ConfigurationError(
      'missing environment variables: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (or TWILIO_API_KEY and TWILIO_API_SECRET)',
    );
  if (!/^AC[0-9a-fA-F]{32}$/.test(sid))
    throw new ConfigurationError('TWILIO_ACCOUNT_SID must be an account SID: AC followed by 32 hex digits');
  if (env['TWILIO_API_KEY'] === undefined ? !env['TWILIO_AUTH_TOKEN'] : !env['TWILIO_API_SECRET'])
    throw new ConfigurationError(
      env['TWILIO_API_KEY'] === undefined
        ? 'missing environment variable: set TWILIO_AUTH_TOKEN (or TWILIO_API_KEY and TWILIO_API_SECRET)'
        : 'missing environment variable: set TWILIO_API_SECRET (the secret of TWILIO_API_KEY)',
    );
  return sid;
}

/** Base URL per product; tests point these at mocks. */
const PRODUCT_URLS: Readonly<Record<string, string>> = {
  'https://api.twilio.com': 'TWILIO_API_URL',
  'https://verify.twilio.com': 'TWILIO_VERIFY_URL',
  'https://lookups.twilio.com': 'TWILIO_LOOKUPS_URL',
};

function productServer(tool: OperationTool): string | undefined {
  if (tool.server === undefined) return undefined;
  const variable = PRODUCT_URLS[tool.server];
  return (variable === undefined ? undefined : env[variable]) || tool.server;
}

const E164 = 'A phone number in E.164 form, e.g. "+14155552671".';

interface Curation {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: OperationTool['annotations'];
  readonly argumentDescriptions?: Readonly<Record<string, string>>;
  /** The arguments a model needs; the rest (rarely used, each a few hundred tokens) are left out. */
  readonly keep?: readonly string[];
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const SENDS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const CURATED: Readonly<Record<string, Curation>> = {
  CreateMessage: {
    name: 'send_message',
    title: 'Send an SMS, MMS or WhatsApp message',
    description:
      'Sends a message from one of the account\u2019s numbers (From) or a Messaging Service (MessagingServiceSid) ' +
      'to To, with Body and/or MediaUrl. It really sends and costs money: only when the user asked to send this ' +
      'message to this recipient. Returns the queued message; delivery status comes later (get_message). ' +
      'WhatsApp: prefix both numbers with "whatsapp:".',
    annotations: SENDS,
    argumentDescriptions: { To: E164, From: `The sender: ${E164} one of the account's numbers.` },
    keep: [
      'To',
      'From',
      'MessagingServiceSid',
      'Body',
      'MediaUrl',
      'ContentSid',
      'ContentVariables',
      'StatusCallback',
      'ScheduleType',
      'SendAt',
      'ValidityPeriod',
    ],
  },
  ListMessage: {
    name: 'list_messages',
    title: 'List messages (message log)',
    description:
      'The message log, newest first: filter by To, From and DateSent (YYYY-MM-DD; DateSent__query is ' +
      '"before", DateSent__query_2 "after"). Use it to find what was sent or received and its status. One page ' +
      'by default (PageSize ≤ 1000); max_pages fetches more. Not for sending.',
    annotations: READ,
    argumentDescriptions: { To: E164, From: E164 },
  },
  FetchMessage: {
    name: 'get_message',
    title: 'Get one message',
    description:
      'One message by its SID (SM… or MM…): status (queued, sent, delivered, undelivered, failed), error code, ' +
      'price, body. Use it to check delivery of a message you know.',
    annotations: READ,
    argumentDescriptions: { Sid: 'The message SID, SM… or MM….' },
  },
  DeleteMessage: {
    name: 'delete_message',
    title: 'Delete a message from the log',
    description:
      'Deletes a message record from the account\u2019s log (the recipient keeps it). Destructive and final: ' +
      'only when the user explicitly asks to delete that message.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    argumentDescriptions: { Sid: 'The message SID, SM… or MM….' },
  },
  CreateCall: {
    name: 'make_call',
    title: 'Place an outbound phone call',
    description:
      'Calls To from From; what happens on the call comes from Twiml (inline instructions, e.g. ' +
      '"<Response><Say>Hello</Say></Response>") or a Url returning TwiML. It really rings a phone and costs ' +
      'money: only when the user asked for this call.',
    annotations: SENDS,
    argumentDescriptions: { To: E164, From: `The caller ID: ${E164} one of the account's numbers.` },
    keep: [
      'To',
      'From',
      'Twiml',
      'Url',
      'Method',
      'StatusCallback',
      'Timeout',
      'Record',
      'SendDigits',
      'MachineDetection',
    ],
  },
  ListCall: {
    name: 'list_calls',
    title: 'List calls (call log)',
    description:
      'The call log, newest first: filter by To, From, Status and StartTime/EndTime (YYYY-MM-DD). Use it for ' +
      'call history and durations. One page by default; max_pages fetches more.',
    annotations: READ,
    argumentDescriptions: { To: E164, From: E164 },
  },
  FetchCall: {
    name: 'get_call',
    title: 'Get one call',
    description: 'One call by its SID (CA…): status, direction, duration, price, timestamps.',
    annotations: READ,
    argumentDescriptions: { Sid: 'The call SID, CA….' },
  },
  UpdateCall: {
    name: 'update_call',
    title: 'End or redirect a live call',
    description:
      'Changes a call in progress: Status "completed" hangs it up ("canceled" for one still ringing); Twiml or ' +
      'Url gives it new instructions. Only for a live call the user wants changed.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    argumentDescriptions: { Sid: 'The call SID, CA….' },
  },
  ListIncomingPhoneNumber: {
    name: 'list_phone_numbers',
    title: 'List the account\u2019s phone numbers',
    description:
      'The phone numbers the account owns, with their capabilities (SMS, MMS, voice) and webhook URLs. Use it ' +
      'to choose a From number. Not for looking up someone else\u2019s number (lookup_phone_number).',
    annotations: READ,
  },
  FetchPhoneNumber: {
    name: 'lookup_phone_number',
    title: 'Look up a phone number',
    description:
      'Validates and formats any phone number (Lookup v2): country, national format, validity. Fields adds paid ' +
      'data packages (e.g. "line_type_intelligence", "caller_name"); leave it out unless the user wants them.',
    annotations: READ,
    argumentDescriptions: { PhoneNumber: 'The number to look up, E.164 or national with CountryCode.' },
    keep: ['PhoneNumber', 'Fields', 'CountryCode'],
  },
  CreateVerification: {
    name: 'start_verification',
    title: 'Send a verification code',
    description:
      'Sends a one-time code to To by Channel (sms, call, email, whatsapp) through a Verify service ' +
      '(ServiceSid VA…, see list_verify_services). Sends a real message: only when the user asks to verify ' +
      'that recipient. Check the code with check_verification.',
    annotations: SENDS,
    argumentDescriptions: { ServiceSid: 'The Verify service SID, VA….' },
    keep: ['ServiceSid', 'To', 'Channel', 'Locale', 'CustomFriendlyName'],
  },
  CreateVerificationCheck: {
    name: 'check_verification',
    title: 'Check a verification code',
    description:
      'Checks the Code the user received for To (or a VerificationSid): status "approved" means correct. Each ' +
      'check counts against the attempt limit; do not guess codes.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    argumentDescriptions: { ServiceSid: 'The Verify service SID, VA….' },
  },
  ListService: {
    name: 'list_verify_services',
    title: 'List Verify services',
    description:
      'The Verify services of the account (SID VA…, name, code length). Use it to find a ServiceSid.',
    annotations: READ,
  },
};

const PRODUCT_TOOLS = [
  ...lookupTools,
  ...verificationTools,
  ...verificationCheckTools,
  ...verifyServiceTools,
];

/** API v2010 operations not curated: reachable through discovery, registered by `extend`. */
let discoverable: OperationTool[] = [];
/** list_messages, curated: registered by `extend` as an MCP Apps tool linked to the message log view. */
let messageLog: OperationTool | undefined;

/** Fills the account SID into a v2010 path and removes the argument. */
function withAccount(tool: OperationTool, sid: string): OperationTool {
  if (!tool.path.includes('{AccountSid}')) return tool;
  const binding = tool.params.find((param) => param.name === 'AccountSid' && param.in === 'path');
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const properties = { ...schema.properties };
  if (binding !== undefined) delete properties[binding.arg];
  const required = (schema.required ?? []).filter((name) => name !== binding?.arg);
  return {
    ...tool,
    path: tool.path.replace('{AccountSid}', encodeURIComponent(sid)),
    params: tool.params.filter((param) => param !== binding),
    inputSchema: { ...tool.inputSchema, properties, required } as OperationTool['inputSchema'],
  };
}

function curate(generated: OperationTool): OperationTool | undefined {
  const server = productServer(generated);
  const tool = withAccount({ ...generated, ...(server === undefined ? {} : { server }) }, accountSid());
  const curation = CURATED[tool.name];
  if (curation === undefined) {
    discoverable.push(tool);
    return undefined;
  }
  const schema = tool.inputSchema as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const keep = curation.keep === undefined ? undefined : new Set(curation.keep);
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([arg]) => keep === undefined || keep.has(arg)),
  );
  for (const [arg, description] of Object.entries(curation.argumentDescriptions ?? {}))
    if (properties[arg] !== undefined) properties[arg] = { ...properties[arg], description };
  const required = (schema.required ?? []).filter((arg) => properties[arg] !== undefined);
  const curated: OperationTool = {
    ...tool,
    name: curation.name,
    title: curation.title,
    description: curation.description,
    inputSchema: { ...tool.inputSchema, properties, required } as OperationTool['inputSchema'],
    annotations: { title: curation.title, ...curation.annotations },
  };
  if (curated.name !== 'list_messages') return curated;
  messageLog = curated;
  return undefined;
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    if (messageLog === undefined) throw new Error('the List Message operation is missing');
    registerMessageLog(server, caller, messageLog);
    messageLog = undefined;
    const rest = discoverable;
    discoverable = [];
    const products = PRODUCT_TOOLS.map(curate).filter((tool): tool is OperationTool => tool !== undefined);
    // Product operations not curated (fetch a verification, manage services…) join the discoverable ones.
    const productRest = discoverable;
    discoverable = [];
    registerOperationTools(server, products, caller, { expose: 'all' });
    registerOperationTools(server, [...rest, ...productRest], caller, { expose: 'groups' });
  },
  runtime: { env: credentials() },
  expose: 'all',
  instructions:
    'Twilio: send and read SMS/MMS/WhatsApp messages, place and inspect calls, send and check verification ' +
    'codes (Verify), look up phone numbers (Lookup). Sending tools really send and cost money: only on the ' +
    "user's explicit request. Other API v2010 operations (addresses, queues, conferences, recordings…) are " +
    'behind discover_tools and call_operation.',
};
