import { scheduleIssuance } from '#application/cards/card-jobs.js';
import { CardLedger } from '#application/cards/card-ledger.js';
import { cardDecider } from '#domain/cards/card.js';
import type { HolderAccount, RequestedCardState } from '#domain/cards/card-types.js';
import { publicId, streams } from '#domain/primitives.js';
import type { SimProcess } from './process.js';
import type { Operation } from './workload.js';
import type { SimCustomer } from './world.js';

/** The controls every simulated card is created with: limits small next to what is asked, so they are reached. */
export const CARD_CONTROLS = { perAuthorizationLimit: 1_500, dailyLimit: 4_000 };

const metadataOf = (platformId: string, correlationId: string) => ({
  platformId,
  actor: 'ApiToken:simulation',
  correlationId,
});

/**
 * The holder's accounts as a card's creation and changes are decided on. The holder's embedded wallet (whose sessions
 * authorize card changes) is not simulated: a wallet account stands in for it, so the signed step is left out.
 */
function holderAccounts(customer: SimCustomer): HolderAccount[] {
  const own = customer.accounts.map((a) => ({ id: a.id, type: 'INTERNAL_FIAT' as const, currency: a.currency }));
  const wallet = { id: `${customer.id}:wallet`, type: 'EMBEDDED_WALLET' as const, currency: 'USD' };
  return [...own, wallet].map((a) => ({ ...a, status: 'ACTIVE' as const }));
}

/** A card funded by a customer's USD account, issued by the sandbox issuer's timer (a job on the platform's clock). */
export const createCard: Operation = async (process, world, random) => {
  const customer = world.customers.length > 0 ? random.pick(world.customers) : undefined;
  const account = customer?.accounts.find((a) => a.currency === 'USD');
  if (!customer || !account || world.cards.length >= 12) return 'no card';
  const platform = world.platforms.find((p) => p.id === customer.platformId)!;
  const cardId = publicId('Card', random.uuid());
  const now = (await process.clocks.now(platform.id)).toISOString();
  await process.runner.run(
    streams.card(cardId),
    cardDecider,
    {
      type: 'CreateCard',
      cardId,
      platformId: platform.id,
      customerId: customer.id,
      platformCardId: `card-${world.cards.length}`,
      holderKycStatus: 'APPROVED',
      holderAccounts: holderAccounts(customer),
      fundingSources: [account.id],
      issuanceSeed: random.uuid(),
      sandbox: platform.sandbox,
      spendingControls: CARD_CONTROLS,
      now,
    },
    { metadata: metadataOf(platform.id, `card-${cardId}`), answersAfter: 'append' },
  );
  world.cards.push({ id: cardId, platformId: platform.id, customerId: customer.id });
  await scheduleIssuance(process.jobs, cardId, platform.id, now);
  return 'card created';
};

/** An authorization from the card network, decided by the application's one authorization path. */
export const authorizeCard: Operation = async (process, world, random) => {
  if (world.cards.length === 0) return 'no card';
  const card = random.pick(world.cards);
  const actor = metadataOf(card.platformId, `auth-${card.id}`);
  const recorded = await process.cardAuthorizations.authorize(
    card.id,
    {
      authorizationId: publicId('CardAuthorization', random.uuid()),
      amount: BigInt(100 + random.int(1_800)),
      currency: 'USD',
      merchant: { descriptor: 'SIM MARKET', mcc: '5411', country: 'US' },
      receivedAt: performance.now(),
    },
    actor,
  );
  return `authorization ${recorded.status}${recorded.declineReason ? ` ${recorded.declineReason}` : ''}`;
};

/** A platform freezes, unfreezes or closes a card; closing reverses its open authorizations and frees their holds. */
export const changeCard: Operation = async (process, world, random) => {
  if (world.cards.length === 0) return 'no card';
  const card = random.pick(world.cards);
  const state = random.pick<RequestedCardState>(['FROZEN', 'ACTIVE', 'ACTIVE', 'CLOSED']);
  const metadata = metadataOf(card.platformId, `change-${card.id}`);
  return process.cardLocks.run(card.id, async () => {
    const result = await process.runner.run(
      streams.card(card.id),
      cardDecider,
      { type: 'UpdateCard', state, holderAccounts: [], now: await nowOf(process, card.platformId) },
      { metadata, answersAfter: 'append' },
    );
    if (result.events.some((e) => e.type === 'CardAuthorizationReversed')) {
      const ledger = await CardLedger.forPlatform(process.runner, process.clocks, process.ctx.ids, card.platformId, {
        ...metadata,
      });
      await ledger.releaseReversed(result.events);
    }
    return `card ${state}`;
  });
};

const nowOf = async (process: SimProcess, platformId: string) => (await process.clocks.now(platformId)).toISOString();
