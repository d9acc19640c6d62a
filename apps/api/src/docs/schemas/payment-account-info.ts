import { ref, str, type Schema } from './kit.js';

/*
 * The variants of PaymentInstructions' `accountOrWalletInfo`, one component per `accountType`, as the public API
 * defines them: where and how a payer pays in. Each variant lists only its own `accountType`. The service also sends
 * `reference` and `bankName` in the bank variants where the public API leaves them out, declared as optional.
 */
type Variant = [accountType: string, required: string[], properties: Record<string, Schema>];

const sized = (minLength: number, maxLength: number, pattern: string): Schema => str({ minLength, maxLength, pattern });
const rails = (...values: string[]): Schema => ({ type: 'array', items: str({ enum: values }) });
const TEXT = str();
const NAME = str({ minLength: 1, maxLength: 255 });
const ACCOUNT = str({ minLength: 1, maxLength: 34 });
const SWIFT = sized(8, 11, '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$');
const PHONE = sized(7, 15, '^\\+[0-9]{6,14}$');
const CHECKING_OR_SAVINGS = str({ enum: ['CHECKING', 'SAVINGS'] });

/** A bank variant: its own fields, then the rails it is paid on and the reference, both always present. */
const bank = (type: string, required: string[], fields: Record<string, Schema>, railNames: string[]): Variant => [
  type,
  [...required, 'paymentRails', 'reference'],
  { ...fields, paymentRails: rails(...railNames), reference: TEXT },
];
/** A bank account named by bank, account number and SWIFT code, paid by bank transfer. */
const swiftBank = (type: string): Variant =>
  bank(type, ['bankName', 'accountNumber', 'swiftCode'], { bankName: NAME, accountNumber: ACCOUNT, swiftCode: SWIFT }, [
    'BANK_TRANSFER',
  ]);
/** A mobile money wallet: phone number (in `phonePattern`) and provider. */
const mobile = (type: string, phonePattern?: string): Variant =>
  bank(
    type,
    ['phoneNumber', 'provider'],
    { phoneNumber: phonePattern ? sized(7, 15, phonePattern) : PHONE, provider: NAME },
    ['MOBILE_MONEY'],
  );
/** A stablecoin wallet on one network: its address and the assets it takes. */
const wallet = (type: string, assets: string[]): Variant => [
  type,
  ['address'],
  { address: TEXT, assetType: str({ enum: assets }), reference: TEXT },
];

const VARIANTS: Variant[] = [
  bank(
    'USD_ACCOUNT',
    ['accountNumber', 'routingNumber'],
    { accountNumber: ACCOUNT, routingNumber: sized(9, 9, '^[0-9]{9}$') },
    ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
  ),
  ['BRL_ACCOUNT', ['qrCode'], { qrCode: { type: 'string', minLength: 1 } }],
  bank('MXN_ACCOUNT', ['clabeNumber'], { clabeNumber: sized(18, 18, '^[0-9]{18}$') }, ['SPEI']),
  bank('DKK_ACCOUNT', ['iban'], { iban: sized(18, 18, '^DK[0-9]{16}$'), swiftCode: SWIFT }, ['SEPA', 'SEPA_INSTANT']),
  bank('EUR_ACCOUNT', ['iban'], { iban: sized(15, 34, '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$'), swiftCode: SWIFT }, [
    'SEPA',
    'SEPA_INSTANT',
  ]),
  [
    'INR_ACCOUNT',
    ['vpa', 'paymentRails'],
    { vpa: sized(3, 255, '^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$'), paymentRails: rails('UPI') },
  ],
  bank('NGN_ACCOUNT', ['accountNumber', 'bankName'], { accountNumber: sized(10, 10, '^[0-9]{10}$'), bankName: NAME }, [
    'BANK_TRANSFER',
  ]),
  bank(
    'CAD_ACCOUNT',
    ['bankCode', 'branchCode', 'accountNumber'],
    {
      bankCode: sized(3, 3, '^[0-9]{3}$'),
      branchCode: sized(5, 5, '^[0-9]{5}$'),
      accountNumber: sized(7, 12, '^[0-9]{7,12}$'),
    },
    ['BANK_TRANSFER'],
  ),
  bank(
    'GBP_ACCOUNT',
    ['sortCode', 'accountNumber'],
    { sortCode: sized(6, 6, '^[0-9]{6}$'), accountNumber: sized(8, 8, '^[0-9]{8}$') },
    ['FASTER_PAYMENTS'],
  ),
  swiftBank('HKD_ACCOUNT'),
  bank(
    'IDR_ACCOUNT',
    ['bankName', 'accountNumber', 'swiftCode', 'phoneNumber'],
    { bankName: NAME, accountNumber: ACCOUNT, swiftCode: SWIFT, phoneNumber: sized(7, 15, '^\\+62[0-9]{9,12}$') },
    ['BANK_TRANSFER'],
  ),
  swiftBank('MYR_ACCOUNT'),
  bank('PHP_ACCOUNT', ['bankName', 'accountNumber'], { bankName: NAME, accountNumber: sized(8, 16, '^[0-9]{8,16}$') }, [
    'BANK_TRANSFER',
  ]),
  bank(
    'SGD_ACCOUNT',
    ['bankName', 'accountNumber', 'swiftCode'],
    { bankName: NAME, accountNumber: ACCOUNT, swiftCode: SWIFT },
    ['PAYNOW', 'FAST', 'BANK_TRANSFER'],
  ),
  swiftBank('THB_ACCOUNT'),
  swiftBank('VND_ACCOUNT'),
  bank('AED_ACCOUNT', ['iban'], { iban: sized(23, 23, '^AE[0-9]{21}$'), swiftCode: SWIFT }, ['BANK_TRANSFER']),
  mobile('KES_ACCOUNT', '^\\+254[0-9]{9}$'),
  mobile('MWK_ACCOUNT'),
  mobile('RWF_ACCOUNT', '^\\+250[0-9]{9}$'),
  mobile('TZS_ACCOUNT', '^\\+255[0-9]{9}$'),
  mobile('UGX_ACCOUNT'),
  bank(
    'XOF_ACCOUNT',
    ['phoneNumber', 'provider', 'region'],
    {
      phoneNumber: PHONE,
      provider: NAME,
      region: { type: 'string', minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', enum: ['BJ', 'CI', 'SN', 'TG'] },
    },
    ['MOBILE_MONEY'],
  ),
  bank('ZAR_ACCOUNT', ['accountNumber', 'bankName'], { accountNumber: sized(9, 13, '^[0-9]{9,13}$'), bankName: NAME }, [
    'BANK_TRANSFER',
  ]),
  mobile('ZMW_ACCOUNT', '^\\+260[0-9]{9}$'),
  mobile('BWP_ACCOUNT'),
  bank(
    'XAF_ACCOUNT',
    ['phoneNumber', 'provider', 'region'],
    {
      phoneNumber: PHONE,
      provider: NAME,
      region: { type: 'string', minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', enum: ['CM', 'CG'] },
    },
    ['MOBILE_MONEY'],
  ),
  bank(
    'BDT_ACCOUNT',
    ['bankName'],
    {
      accountNumber: ACCOUNT,
      bankName: NAME,
      branchCode: sized(5, 5, '^[0-9]{5}$'),
      swiftCode: SWIFT,
      phoneNumber: PHONE,
    },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
  ),
  ['ARS_ACCOUNT', ['accountNumber'], { accountNumber: sized(22, 22, '^\\d{22}$') }],
  ['COP_ACCOUNT', ['paymentUrl'], { paymentUrl: { type: 'string', format: 'uri' } }],
  bank('EGP_ACCOUNT', ['bankName'], { iban: sized(29, 29, '^EG[0-9]{27}$'), bankName: NAME, phoneNumber: PHONE }, [
    'BANK_TRANSFER',
    'MOBILE_MONEY',
  ]),
  bank('GHS_ACCOUNT', ['bankName'], { accountNumber: ACCOUNT, bankName: NAME, phoneNumber: PHONE }, [
    'BANK_TRANSFER',
    'MOBILE_MONEY',
  ]),
  bank(
    'GTQ_ACCOUNT',
    ['accountNumber', 'bankAccountType'],
    { accountNumber: ACCOUNT, bankAccountType: CHECKING_OR_SAVINGS },
    ['BANK_TRANSFER'],
  ),
  bank('HTG_ACCOUNT', ['phoneNumber'], { phoneNumber: PHONE }, ['MOBILE_MONEY']),
  bank(
    'JMD_ACCOUNT',
    ['accountNumber', 'branchCode', 'bankAccountType'],
    { accountNumber: ACCOUNT, branchCode: sized(5, 5, '^[0-9]{5}$'), bankAccountType: CHECKING_OR_SAVINGS },
    ['BANK_TRANSFER'],
  ),
  bank(
    'PKR_ACCOUNT',
    ['bankName'],
    {
      bankName: NAME,
      accountNumber: ACCOUNT,
      iban: sized(24, 24, '^PK[0-9]{2}[A-Z]{4}[0-9]{16}$'),
      phoneNumber: PHONE,
    },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
  ),
  bank(
    'SLV_ACCOUNT',
    [],
    { bankName: NAME, accountNumber: ACCOUNT, bankAccountType: CHECKING_OR_SAVINGS, phoneNumber: PHONE },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
  ),
  bank(
    'SWIFT_ACCOUNT',
    ['swiftCode', 'bankName', 'country'],
    {
      country: sized(2, 2, '^[A-Z]{2}$'),
      swiftCode: SWIFT,
      bankName: NAME,
      accountNumber: ACCOUNT,
      iban: sized(15, 34, '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$'),
    },
    ['SWIFT'],
  ),
  [
    'SPARK_WALLET',
    ['address', 'assetType'],
    { address: TEXT, assetType: str({ enum: ['BTC', 'USDB'] }), invoice: TEXT, reference: TEXT },
  ],
  ['LIGHTNING', ['invoice'], { invoice: TEXT }],
  wallet('SOLANA_WALLET', ['USDC', 'USDT']),
  wallet('TRON_WALLET', ['USDT']),
  wallet('POLYGON_WALLET', ['USDC']),
  wallet('BASE_WALLET', ['USDC']),
  wallet('ETHEREUM_WALLET', ['USDC']),
  ['EMBEDDED_WALLET', ['payloadToSign'], { payloadToSign: TEXT }],
];

/** The component name the public API gives the variant of `accountType`, such as PaymentUsdAccountInfo. */
export function paymentInfoName(accountType: string): string {
  if (accountType === 'LIGHTNING') return 'PaymentLightningInvoiceInfo';
  const words = accountType.split('_').map((w) => w[0] + w.slice(1).toLowerCase());
  return `Payment${words.join('')}Info`;
}

/** The types of wallet and bank account a payer can be told to pay into. */
export const PAYMENT_INFO_TYPES: readonly string[] = VARIANTS.map(([type]) => type);

/** What the service sends besides the public API's fields in a bank variant. */
const ALSO_SENT: Record<string, Schema> = {
  bankName: str({ description: 'The bank the account is held at.' }),
  reference: str({ description: 'Include it with the payment so it is matched.' }),
};
const alsoSent = (type: string, properties: Record<string, Schema>) =>
  type.endsWith('_ACCOUNT') ? Object.fromEntries(Object.entries(ALSO_SENT).filter(([k]) => !(k in properties))) : {};

export const paymentAccountInfoSchemas: Record<string, Schema> = Object.fromEntries(
  VARIANTS.map(([type, required, properties]) => [
    paymentInfoName(type),
    {
      type: 'object',
      title: type,
      required: ['accountType', ...required],
      properties: { accountType: str({ enum: [type] }), ...properties, ...alsoSent(type, properties) },
    },
  ]),
);

/** PaymentInstructions' accountOrWalletInfo: one of the variants, told apart by accountType. */
export const paymentAccountInfo: Schema = {
  oneOf: PAYMENT_INFO_TYPES.map((type) => ref(paymentInfoName(type))),
  discriminator: {
    propertyName: 'accountType',
    mapping: Object.fromEntries(PAYMENT_INFO_TYPES.map((t) => [t, `#/components/schemas/${paymentInfoName(t)}`])),
  },
};
