import { p256 } from '@noble/curves/nist.js';
import { openSessionKey } from '@payments-platform/client';
import { holderAccounts, UpdateCardCommand } from '#application/cards/card-commands.js';
import { scheduleIssuance } from '#application/cards/card-jobs.js';
import { CreateCustomerCommand, OpenInternalAccountCommand } from '#application/customers/customer-commands.js';
import { AdvanceSandboxClockCommand } from '#application/sandbox-clock/sandbox-clock.js';
import { RevokeSessionCommand, VerifyCredentialCommand } from '#application/wallet/session-commands.js';
import type { SignedRequest, SignedResult } from '#application/wallet/signed-retry.service.js';
import { STAMP_SCHEME } from '#crypto/stamp.js';
import { cardDecider } from '#domain/cards/card.js';
import { publicId, streams } from '#domain/primitives.js';
import type { SimProcess } from './process.js';
import type { Random } from './scheduler.js';
import { seededScalar } from './wallet-crypto.js';
import { CARD_CONTROLS } from './workload-cards.js';
import { expectedFailure, outcome, type Operation } from './workload.js';
import type { World } from './world.js';
import { actorOf } from './actors.js';

/** A session as the end user's device holds it: its id and the signing key opened from the service's answer. */
export interface DeviceSession {
  id: string;
  privateKey: string;
  /** Compressed P-256 public key (hex). */
  publicKey: string;
  /** Whether the device revoked it (it may still try to sign with it). */
  revoked: boolean;
  /** Whether the service answered that it expired (the device may still try to sign with it). */
  expired?: boolean;
}

/** A customer's EMBEDDED_WALLET account, its EMAIL_OTP credential, its card and the sessions its device holds. */
export interface SimWallet {
  platformId: string;
  customerId: string;
  accountId: string;
  emailOtpId: string;
  /** The card whose PATCHes the wallet's sessions sign (once created). */
  cardId?: string;
  /** Whether the device last froze the card (it mostly asks for the other state next). */
  frozen: boolean;
  sessions: DeviceSession[];
}

/** At most this many wallets: few, so that signed retries contend on each wallet's stream. */
const MAX_WALLETS = 4;
/** A device forgets its oldest session past this many (revoked and expired ones are kept until then). */
const MAX_SESSIONS = 6;
/** The OTP sandbox platforms accept (wallet-verifiers.ts). */
const SANDBOX_OTP = '000000';

/** The device's `Service-Wallet-Signature`: ECDSA P-256 / SHA-256 over the exact payload, in the stamp format. */
export function stamp(privateKey: string, publicKey: string, payload: string): string {
  const signature = p256.sign(new TextEncoder().encode(payload), Buffer.from(privateKey, 'hex'), { format: 'der' });
  const body = { publicKey, scheme: STAMP_SCHEME, signature: Buffer.from(signature).toString('hex') };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** A customer with an email and an EMBEDDED_WALLET account (its EMAIL_OTP credential provisioned), then its card. */
export const openWallet: Operation = async (process, world, random) => {
  if (world.wallets.length >= MAX_WALLETS) return 'enough wallets';
  const platform = random.pick(world.platforms.filter((p) => p.sandbox));
  const name = `wallet-${random.uuid().slice(0, 8)}`;
  const actor = actorOf(platform.id, `wallet-${name}`);
  const customerId = await process.createCustomer.execute(
    new CreateCustomerCommand(
      {
        platformCustomerId: name,
        customerType: 'INDIVIDUAL',
        fullName: 'Wallet Holder',
        email: `${name}@example.com`,
        currencies: ['USD'],
      },
      actor,
    ),
  );
  const accountId = await process.wallet.openAccount.execute(
    new OpenInternalAccountCommand({ customerId, type: 'EMBEDDED_WALLET', currency: 'USD' }, actor),
  );
  const state = await process.wallet.wallets.state(accountId);
  const emailOtp = [...state.authMethods.values()].find((m) => m.type === 'EMAIL_OTP')!;
  const wallet: SimWallet = {
    platformId: platform.id,
    customerId,
    accountId,
    emailOtpId: emailOtp.id,
    frozen: false,
    sessions: [],
  };
  world.wallets.push(wallet);
  wallet.cardId = await createWalletCard(process, wallet, random);
  return `wallet ${name} opened`;
};

/** A card of the wallet's holder: the holder's accounts (the wallet among them) are read from the customer stream. */
async function createWalletCard(process: SimProcess, wallet: SimWallet, random: Random): Promise<string> {
  const accounts = await holderAccounts(process.runner, wallet.customerId);
  const funding = accounts.find((a) => a.type === 'INTERNAL_FIAT' && a.currency === 'USD')!;
  const cardId = publicId('Card', random.uuid());
  const now = (await process.clocks.now(wallet.platformId)).toISOString();
  await process.runner.run(
    streams.card(cardId),
    cardDecider,
    {
      type: 'CreateCard',
      cardId,
      platformId: wallet.platformId,
      customerId: wallet.customerId,
      platformCardId: `wallet-card-${cardId.slice(-8)}`,
      holderKycStatus: 'APPROVED',
      holderAccounts: accounts,
      fundingSources: [funding.id],
      issuanceSeed: random.uuid(),
      sandbox: true,
      spendingControls: CARD_CONTROLS,
      now,
    },
    { metadata: actorOf(wallet.platformId, `card-${cardId}`), answersAfter: 'append' },
  );
  await scheduleIssuance(process.jobs, cardId, wallet.platformId, now);
  return cardId;
}

/**
 * The device verifies the wallet's EMAIL_OTP credential with a client key pair drawn from the seed (now and then
 * with a wrong code) and opens the session signing key the service sealed to it.
 */
export const walletSession: Operation = async (process, world, random) => {
  if (world.wallets.length === 0) return 'no wallet';
  return signIn(process, pickWallet(world, random), random);
};

/** A wallet, the first one about half the time: signed retries often contend on one wallet's stream. */
const pickWallet = (world: World, random: Random): SimWallet =>
  random.chance(0.5) ? world.wallets[0] : random.pick(world.wallets);

async function signIn(process: SimProcess, wallet: SimWallet, random: Random): Promise<string> {
  const clientPrivateKey = seededScalar(random);
  const clientPublicKey = Buffer.from(p256.getPublicKey(clientPrivateKey, false)).toString('hex');
  const otp = random.chance(0.1) ? '123456' : SANDBOX_OTP;
  const issued = await process.wallet.verifyCredential.execute(
    new VerifyCredentialCommand(
      wallet.emailOtpId,
      { type: 'EMAIL_OTP', otp, clientPublicKey },
      undefined,
      actorOf(wallet.platformId, `verify-${wallet.emailOtpId}`),
    ),
  );
  const key = openSessionKey(issued.encryptedSessionSigningKey, clientPrivateKey.toString('hex'));
  wallet.sessions.push({ id: issued.id, privateKey: key.privateKey, publicKey: key.publicKey, revoked: false });
  if (wallet.sessions.length > MAX_SESSIONS) wallet.sessions.shift();
  return `session ${issued.id} issued${otp === SANDBOX_OTP ? '' : ' on a wrong code'}`;
}

type Variant = 'good' | 'bad-signature' | 'other-key' | 'replay' | 'race' | 'expired';

function variantOf(random: Random): Variant {
  const roll = random.next();
  if (roll < 0.5) return 'good';
  if (roll < 0.58) return 'bad-signature';
  if (roll < 0.66) return 'other-key';
  if (roll < 0.78) return 'replay';
  if (roll < 0.93) return 'race';
  return 'expired';
}

/** One signed operation of a device, as the edge hands it to its handler (step 1 without the headers). */
interface SignedOperation {
  name: string;
  send(process: SimProcess, signed: SignedRequest): Promise<SignedResult<unknown>>;
  request: Omit<SignedRequest, 'headers'>;
}

function cardPatch(wallet: SimWallet, random: Random): SignedOperation {
  const cardId = wallet.cardId!;
  const freeze = random.chance(0.85) ? !wallet.frozen : wallet.frozen;
  const state = freeze ? ('FROZEN' as const) : ('ACTIVE' as const);
  const actor = actorOf(wallet.platformId, `patch-${cardId}`);
  return {
    name: `card ${state}`,
    request: { method: 'PATCH', path: `/cards/${cardId}`, body: { state } },
    send: (process, signed) =>
      process.wallet.updateCard.execute(new UpdateCardCommand(cardId, { state }, signed, actor)).then((result) => {
        if (result.kind === 'done') wallet.frozen = freeze;
        return result;
      }),
  };
}

function sessionRevocation(wallet: SimWallet, target: DeviceSession): SignedOperation {
  const actor = actorOf(wallet.platformId, `revoke-${target.id}`);
  return {
    name: 'revoke',
    request: { method: 'DELETE', path: `/auth/sessions/${target.id}`, body: {} },
    send: (process, signed) =>
      process.wallet.revokeSession.execute(new RevokeSessionCommand(target.id, signed, actor)).then((result) => {
        if (result.kind === 'done') target.revoked = true;
        return result;
      }),
  };
}

/**
 * A device signs an operation on its wallet as a signed retry: step 1 (the challenge), then step 2 with its stamp, on
 * whichever process runs then (a restart in between is a process that never saw the challenge). Now and then the stamp
 * is wrong (another payload, another wallet's key), the retry is sent again once done (a replay) or twice at once,
 * the session is revoked or has expired, or the platform's clock passes the session's lifetime in between.
 */
export const walletSigned: Operation = async (process, world, random) => {
  if (world.wallets.length === 0) return 'no wallet';
  const wallet = pickWallet(world, random);
  const usable = wallet.sessions.filter((s) => !s.revoked && !s.expired);
  // A device without a session signs in first.
  if (usable.length === 0) return `signed in first: ${await signIn(process, wallet, random)}`;
  const session = random.chance(0.85) ? random.pick(usable) : random.pick(wallet.sessions);
  const operation =
    wallet.cardId && random.chance(0.85)
      ? cardPatch(wallet, random)
      : sessionRevocation(wallet, random.chance(0.7) ? session : random.pick(wallet.sessions));
  const variant = variantOf(random);
  const signer = `${session.id}${session.revoked ? ' (revoked)' : ''}`;
  const first = await operation.send(process, { ...operation.request, headers: {} });
  if (first.kind !== 'challenge') return `${operation.name} answered without a challenge`;
  const { payloadToSign, requestId } = first.challenge;
  // The device takes its time now and then: the clock moves, a process may restart.
  if (random.chance(0.3)) await new Promise<void>((resolve) => setTimeout(resolve, random.int(30_000)));
  if (variant === 'expired') {
    const actor = actorOf(wallet.platformId, 'wallet-clock');
    await pickProcess(world, random, process).advanceClock.execute(new AdvanceSandboxClockCommand(16 * 60_000, actor));
  }
  const key = variant === 'other-key' ? otherKey(world, wallet, random) : session;
  const payload = variant === 'bad-signature' ? `${payloadToSign} ` : payloadToSign;
  const signature = stamp(key.privateKey, key.publicKey, payload);
  const retry = () =>
    sendSigned(world, random, process, operation, requestId, signature).then((answer) => {
      if (answer === 'SESSION_EXPIRED' && key === session) session.expired = true;
      return answer;
    });
  const answers =
    variant === 'race'
      ? await Promise.all([retry(), retry()])
      : variant === 'replay'
        ? [await retry(), await retry()]
        : [await retry()];
  return `${operation.name} ${variant} by ${signer}: ${answers.join(', ')}`;
};

/** A key that is no session of this wallet: another wallet's session key, or a key no session has. */
function otherKey(world: World, wallet: SimWallet, random: Random): { privateKey: string; publicKey: string } {
  const others = world.wallets.filter((w) => w !== wallet).flatMap((w) => w.sessions);
  if (others.length > 0 && random.chance(0.7)) return random.pick(others);
  const privateKey = seededScalar(random);
  return {
    privateKey: privateKey.toString('hex'),
    publicKey: Buffer.from(p256.getPublicKey(privateKey)).toString('hex'),
  };
}

const pickProcess = (world: World, random: Random, fallback: SimProcess): SimProcess => {
  const live = world.processes().filter((p) => p.alive);
  return live.length > 0 ? random.pick(live) : fallback;
};

/** Step 2 on a live process; the stamp is recorded first (the invariants check what consumed it). */
async function sendSigned(
  world: World,
  random: Random,
  fallback: SimProcess,
  operation: SignedOperation,
  requestId: string,
  signature: string,
): Promise<string> {
  const sent = world.stamps.get(requestId) ?? [];
  sent.push(signature);
  world.stamps.set(requestId, sent);
  try {
    const answer = await operation.send(pickProcess(world, random, fallback), {
      ...operation.request,
      headers: { signature, requestId },
    });
    return answer.kind;
  } catch (error) {
    if (!expectedFailure(error)) throw error;
    return outcome(error);
  }
}
