import { processorSignature } from '#domain/cards/card-processor.js';
import type { Cardholder } from '../card-fixture.js';
import { ok, type Tour } from './tour.js';

/**
 * The card processor's side: its secret and settings, then the messages it signs for the cardholder's card (an
 * authorization, its clearing and a refund; a hotel's authorization raised by an incremental authorization and partly
 * reversed), and one with a bad signature.
 */
export async function cardProcessorTour({ t, api, anonymous, clock }: Tour, h: Cardholder): Promise<void> {
  const secret = ok(await api.post('/config/card-processor/secret')).body.cardProcessorSecret as string;
  ok(await api.get('/config/card-processor'));
  ok(await api.patch('/config/card-processor', { decisionDeadlineMs: 1500, standInDecision: 'DECLINE' }));
  const send = (body: Record<string, unknown>, key = secret) => {
    const raw = JSON.stringify(body);
    const at = Math.floor(clock.now().getTime() / 1000);
    return anonymous.post('/card-processor/messages', raw, {
      'content-type': 'application/json',
      'x-processor-platform': t.service.sandbox!.platformId,
      'x-processor-signature': `t=${at},v1=${processorSignature(key, at, raw)}`,
    });
  };
  const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };
  const hotel = { descriptor: 'HARBOR HOTEL', mcc: '7011', country: 'US' };
  const authorization = {
    type: 'AUTHORIZATION',
    networkTransactionId: 'ntx_auth_0001',
    cardId: h.cardId,
    amount: 250,
    currency: 'USD',
    merchant,
    entryMode: 'CONTACTLESS',
  };
  ok(await send(authorization));
  const original = { originalNetworkTransactionId: 'ntx_auth_0001', cardId: h.cardId };
  ok(await send({ type: 'CLEARING', networkTransactionId: 'ntx_clear_0001', ...original, amount: 250 }));
  ok(await send({ type: 'REFUND', networkTransactionId: 'ntx_refund_0001', ...original, amount: 100 }));
  // A hotel's authorization raised by an increment, then partly reversed.
  ok(await send({ ...authorization, networkTransactionId: 'ntx_auth_0003', amount: 400, merchant: hotel }));
  const hotelStay = { originalNetworkTransactionId: 'ntx_auth_0003', cardId: h.cardId };
  ok(
    await send({ type: 'INCREMENTAL_AUTHORIZATION', networkTransactionId: 'ntx_incr_0001', ...hotelStay, amount: 150 }),
  );
  ok(await send({ type: 'REVERSAL', networkTransactionId: 'ntx_rev_0001', ...hotelStay, amount: 100 }));
  ok(await send({ ...authorization, networkTransactionId: 'ntx_auth_0002' }, 'cpsec_not_the_secret'), 401);
}
