import { obj, type Schema } from './kit.js';
const str = (description: string): Schema => ({ type: 'string', description });

export const discoverySchemas: Record<string, Schema> = {
  Discovery: obj(['bankName', 'displayName', 'country', 'currency'], {
    bankName: str('Canonical name: give it as `bankName` when creating an external account.'),
    displayName: str('Name to show people.'),
    country: str('ISO 3166-1 alpha-2.'),
    currency: str('ISO 4217.'),
  }),
  DiscoveryList: obj(['data'], { data: { type: 'array', items: { $ref: '#/components/schemas/Discovery' } } }),
  EstimateCryptoWithdrawalFeeResponse: obj(
    ['networkFee', 'networkFeeAsset', 'applicationFee', 'totalFee', 'netAmount'],
    {
      networkFee: { type: 'integer', description: 'Smallest unit of networkFeeAsset (informational).' },
      networkFeeAsset: str('The asset the network charges in, e.g. SOL, ETH, BTC.'),
      applicationFee: { type: 'integer', description: 'Smallest unit of the withdrawal currency; 0 when none.' },
      totalFee: {
        type: 'integer',
        description: 'The network fee in the withdrawal currency plus applicationFee (smallest unit).',
      },
      netAmount: { type: 'integer', description: 'What the recipient would receive (smallest unit).' },
    },
  ),
};
