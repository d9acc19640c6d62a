/**
 * Onboard a customer with an embedded wallet:
 *
 *   1. create the customer (with an email: the wallet's EMAIL_OTP credential is sent there);
 *   2. open an EMBEDDED_WALLET internal account for it;
 *   3. sign in: EMAIL_OTP challenge, verify with a fresh client P-256 key, decrypt the session signing key;
 *   4. use the session: a signed retry done by hand (202 challenge, stamp `payloadToSign`, send it again
 *      with `Service-Wallet-Signature` and `Request-Id`) that turns on the wallet's private mode.
 *
 * Run: node dist/examples/onboard-customer.js   (environment: see setup.ts)
 */
import type { Page, SignedRetryChallenge } from '@payments-platform/client';
import { check, platformClient, run, show, step, uniqueRef } from './setup.js';
import { openEmbeddedWallet, startEmailOtpSession, type AuthSession, type InternalAccount } from './wallet.js';

interface Customer {
  id: string;
  platformCustomerId: string;
  kycStatus?: string;
  umaAddress?: string;
}

run('onboard-customer', async () => {
  const client = platformClient();

  step('Create a customer');
  const customer = await client.post<Customer>(
    '/customers',
    {
      platformCustomerId: uniqueRef('onboard'),
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      currencies: ['USD'],
    },
    // Retrying a create with the same Idempotency-Key returns the first customer instead of a second one.
    { idempotencyKey: uniqueRef('create-customer') },
  );
  show('customer', customer.id);
  show('kycStatus', customer.kycStatus);
  show('umaAddress', customer.umaAddress);

  step('Open an embedded wallet for the customer');
  const { account, emailOtp } = await openEmbeddedWallet(client, customer.id, 'USD');
  show('wallet', account.id);
  show('credential', `${emailOtp.type} ${emailOtp.id}`);

  step('Sign in with the email code and open the session signing key');
  const session = await startEmailOtpSession(client, emailOtp);
  show('session', session.sessionId);
  show('expires at', session.expiresAt);
  show('session key', session.publicKey);

  step('Stamp a request: turn on private mode with a signed retry');
  const path = `/internal-accounts/${account.id}`;
  const body = { privateEnabled: true };
  // First call: the service does not act yet; it answers 202 with the exact payload to sign.
  const first = await client.exchange<SignedRetryChallenge>('PATCH', path, { body });
  check(first.status === 202, `expected a 202 challenge, got ${first.status}`);
  show('requestId', first.body.requestId);
  show('payloadToSign', first.body.payloadToSign);
  // Stamp the payload byte for byte with the session key ...
  const { stampHeaderValue } = await session.stamper.stamp(first.body.payloadToSign);
  // ... and send the same request again with the stamp and the challenge's requestId (usable once).
  const updated = await client.request<InternalAccount>('PATCH', path, {
    body,
    headers: { 'Service-Wallet-Signature': stampHeaderValue, 'Request-Id': first.body.requestId },
  });
  check(updated.privateEnabled === true, 'the wallet did not turn private');
  show('privateEnabled', updated.privateEnabled);

  step('List the wallet sessions');
  const sessions = await client.get<Page<AuthSession>>('/auth/sessions', { accountId: account.id });
  for (const s of sessions.data) show(s.id, `${s.type} until ${s.expiresAt}`);
  check(
    sessions.data.some((s) => s.id === session.sessionId),
    'the new session is not listed',
  );

  return { customerId: customer.id, accountId: account.id, sessionId: session.sessionId };
});
