/**
 * The curated Stripe server: customers, payments, refunds, invoices, subscriptions, the catalogue and the balance
 * as sixteen tools named and described for models; the other 436 operations of Stripe's description (Connect,
 * Issuing, Terminal, Treasury, test helpers…) stay reachable behind discover_tools / call_operation. The secret
 * key comes from STRIPE_SECRET_KEY (sent as a bearer token). Output schemas keep the top level of Stripe's
 * objects: the full ones cost up to 4,000 tokens each in `tools/list`. Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import { registerOperationTools, type Exposure } from '../runtime/register.js';
import {
  applyCuration,
  shallowSchema,
  CREATE,
  DELETE,
  READ,
  UPDATE,
  type Curation,
} from '../runtime/curate.js';

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

function checkCredentials(): void {
  const key = env['STRIPE_SECRET_KEY'];
  if (!key)
    throw new ConfigurationError(
      'missing environment variable: set STRIPE_SECRET_KEY to a secret key (sk_test_… or sk_live_…) or a ' +
        'restricted key (rk_…) from https://dashboard.stripe.com/apikeys',
    );
  if (!/^(sk|rk)_(test|live)_/.test(key))
    throw new ConfigurationError(
      'STRIPE_SECRET_KEY must be a secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…), ' +
        'never a publishable key (pk_…)',
    );
}

const LIST = ['limit', 'starting_after', 'max_pages', 'created'];

const CURATED: Readonly<Record<string, Curation>> = {
  GetCustomers: {
    name: 'list_customers',
    title: 'List customers',
    description:
      'Customers, newest first, optionally those with an exact email. Use it to find a customer id (cus_…) ' +
      'from an email. For free-text or metadata lookups use search_customers; for one known id, get_customer.',
    annotations: READ,
    keep: ['email', ...LIST],
  },
  GetCustomersSearch: {
    name: 'search_customers',
    title: 'Search customers',
    description:
      'Finds customers with Stripe\u2019s search query language, e.g. `name~"jane"`, `email:"a@b.com"`, ' +
      '`metadata["plan"]:"pro"`. Not for listing everyone (list_customers) and not real-time: new customers ' +
      'can take a minute to appear.',
    annotations: READ,
    keep: ['query', 'limit', 'page'],
  },
  GetCustomersCustomer: {
    name: 'get_customer',
    title: 'Get a customer',
    description: 'One customer by id (cus_…): email, name, balance, default payment settings, metadata.',
    annotations: READ,
    keep: ['customer'],
  },
  PostCustomers: {
    name: 'create_customer',
    title: 'Create a customer',
    description:
      'Creates a customer (email, name, phone, description, metadata). Only when the user asks to add one: ' +
      'check with list_customers first, Stripe does not refuse duplicates.',
    annotations: CREATE,
    keep: ['email', 'name', 'phone', 'description', 'metadata', 'address'],
  },
  PostCustomersCustomer: {
    name: 'update_customer',
    title: 'Update a customer',
    description:
      'Changes a customer\u2019s email, name, phone, description, address or metadata; only the fields given ' +
      'change. Not for payment methods or subscriptions.',
    annotations: UPDATE,
    keep: ['customer', 'email', 'name', 'phone', 'description', 'metadata', 'address'],
  },
  GetPaymentIntents: {
    name: 'list_payments',
    title: 'List payments (PaymentIntents)',
    description:
      'Payments as PaymentIntents (pi_…), newest first, optionally of one customer. Each has amount (in the ' +
      'smallest currency unit: 1000 = 10.00 EUR), currency and status (succeeded, requires_payment_method…).',
    annotations: READ,
    keep: ['customer', ...LIST],
  },
  GetPaymentIntentsIntent: {
    name: 'get_payment',
    title: 'Get a payment',
    description: 'One PaymentIntent (pi_…): amount, currency, status, customer, latest charge, last error.',
    annotations: READ,
    keep: ['intent'],
  },
  PostRefunds: {
    name: 'refund_payment',
    title: 'Refund a payment',
    description:
      'Refunds a payment (payment_intent pi_… or charge ch_…), in full or partly (amount, smallest currency ' +
      'unit), with an optional reason (duplicate, fraudulent, requested_by_customer). Moves money back to the ' +
      'customer: only when the user explicitly asks for a refund.',
    annotations: CREATE,
    keep: ['payment_intent', 'charge', 'amount', 'reason', 'metadata'],
  },
  GetInvoices: {
    name: 'list_invoices',
    title: 'List invoices',
    description:
      'Invoices, newest first, filtered by customer, subscription or status (draft, open, paid, ' +
      'uncollectible, void). Use it for "what does this customer owe" questions.',
    annotations: READ,
    keep: ['customer', 'subscription', 'status', ...LIST],
  },
  GetInvoicesInvoice: {
    name: 'get_invoice',
    title: 'Get an invoice',
    description: 'One invoice (in_…): amounts due and paid, status, lines, hosted invoice URL, PDF.',
    annotations: READ,
    keep: ['invoice'],
  },
  PostInvoices: {
    name: 'create_invoice',
    title: 'Create a draft invoice',
    description:
      'Creates a draft invoice for a customer from their pending invoice items. It is not sent: finalise and ' +
      'send it with send_invoice. collection_method send_invoice needs days_until_due.',
    annotations: CREATE,
    keep: ['customer', 'collection_method', 'days_until_due', 'description', 'auto_advance', 'metadata'],
  },
  PostInvoicesInvoiceSend: {
    name: 'send_invoice',
    title: 'Send an invoice',
    description:
      'Emails an invoice to its customer (finalising a draft first). Only when the user asks to send it; ' +
      'Stripe sends invoices of subscriptions on its own.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    keep: ['invoice'],
  },
  GetSubscriptions: {
    name: 'list_subscriptions',
    title: 'List subscriptions',
    description:
      'Subscriptions, filtered by customer, price or status (active, past_due, canceled, all…; by default ' +
      'every status but canceled). Use it for "is this customer subscribed" questions.',
    annotations: READ,
    keep: ['customer', 'price', 'status', ...LIST],
  },
  DeleteSubscriptionsSubscriptionExposedId: {
    name: 'cancel_subscription',
    title: 'Cancel a subscription now',
    description:
      'Cancels a subscription (sub_…) immediately: the customer is no longer billed (invoice_now bills ' +
      'pending usage, prorate credits unused time). Destructive, no undo: only when the user explicitly asks.',
    annotations: DELETE,
    keep: ['subscription_exposed_id', 'invoice_now', 'prorate'],
  },
  GetPrices: {
    name: 'list_prices',
    title: 'List prices (the catalogue)',
    description:
      'Prices (price_…) with their product, amount, currency and billing interval, filtered by product, ' +
      'active or type (one_time, recurring). Use it to find the price id a subscription or payment link needs.',
    annotations: READ,
    keep: ['product', 'active', 'type', 'currency', ...LIST],
  },
  GetBalance: {
    name: 'get_balance',
    title: 'Get the account balance',
    description:
      'The account\u2019s balance per currency: available (can be paid out) and pending (not yet settled), ' +
      'in the smallest currency unit. Not for one customer\u2019s credit balance (get_customer).',
    annotations: READ,
    keep: [],
  },
};

/** Operations not curated: reachable through discovery, registered by `extend`. */
let discoverable: OperationTool[] = [];
let checked = false;

/**
 * An operation behind discovery keeps its input schema and a shallow output schema: every server start compiles
 * the schemas of every operation, and the full response schemas of this description make that take seconds.
 */
function discoverableTool(tool: OperationTool): OperationTool {
  const { outputSchema, ...rest } = tool;
  const shallow = shallowSchema(outputSchema);
  return shallow === undefined ? rest : { ...rest, outputSchema: shallow };
}

function curate(generated: OperationTool): OperationTool | undefined {
  if (!checked) {
    checkCredentials();
    checked = true;
  }
  const tool: OperationTool = { ...generated, security: [['bearerAuth']] };
  const curation = CURATED[generated.name];
  if (curation === undefined) {
    discoverable.push(discoverableTool(tool));
    return undefined;
  }
  return applyCuration(tool, curation);
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    const rest = discoverable;
    discoverable = [];
    registerOperationTools(server, rest, caller, { expose: 'groups' });
  },
  runtime: { env: { ...env, STRIPE_BEARERAUTH_TOKEN: env['STRIPE_SECRET_KEY'] } },
  expose: 'all',
  instructions:
    'Stripe: amounts are integers in the smallest currency unit (1000 = 10.00 EUR). Find a customer with ' +
    'list_customers (email) or search_customers, then their payments, invoices and subscriptions. Refunds, ' +
    'sends and cancellations move money or notify customers: only on an explicit request. Everything else of ' +
    'the Stripe API (Connect, Issuing, Terminal, Checkout, payment links…) is behind discover_tools.',
};
