/**
 * The external account types the service accepts, with their fields, as the public API names them. One table
 * drives request validation, the OpenAPI schemas, the payment rails a response lists and which field is the
 * account's primary identifier (the one whose last three characters select sandbox outcomes).
 */
export interface AccountField {
  required: boolean;
  /** What the value must look like, for error messages and documentation. */
  description: string;
  minLength: number;
  maxLength: number;
  pattern?: RegExp;
  enum?: readonly string[];
}

export interface AccountTypeSpec {
  description: string;
  /** The currencies the account holds; `any`: every supported-shaped code (SWIFT accounts, wallets). */
  currencies: readonly string[] | 'any';
  /** Fields tried in order for the primary identifier; an account may have none of them. */
  identifiers: readonly string[];
  fields: Readonly<Record<string, AccountField>>;
  /** The rails a payment to the account can take (bank accounts; wallets have none). */
  paymentRails: readonly string[];
  /**
   * Bank accounts name their holder in `accountInfo.beneficiary`; the individual variant's fields beyond
   * `fullName` that this type also requires, and extra fields it takes.
   */
  beneficiary?: { required: readonly string[]; extra: readonly string[] };
}

const field = (required: boolean, description: string, minLength: number, maxLength: number, pattern?: RegExp) => ({
  required,
  description,
  minLength,
  maxLength,
  ...(pattern ? { pattern } : {}),
});
const oneOf = (required: boolean, values: readonly string[]): AccountField => ({
  required,
  description: `one of ${values.join(', ')}`,
  minLength: 1,
  maxLength: 32,
  enum: values,
});
type Maker = (required?: boolean) => AccountField;
const text =
  (max: number, min = 1): Maker =>
  (r = true) =>
    field(r, `${min}-${max} characters`, min, max);
const digits =
  (min: number, max = min): Maker =>
  (r = true) =>
    field(r, min === max ? `${min} digits` : `${min}-${max} digits`, min, max, new RegExp(`^[0-9]{${min},${max}}$`));
const shaped =
  (pattern: RegExp, description: string, min: number, max: number): Maker =>
  (r = true) =>
    field(r, description, min, max, pattern);

const accountNumber = text(34);
const bankName = text(255);
const provider = text(255);
const swiftCode = shaped(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'a BIC: 8 or 11 characters', 8, 11);
const phone = shaped(/^\+[0-9]{6,14}$/, '+ and 6-14 digits', 7, 15);
const phoneOf = (prefix: string, n: string) =>
  shaped(new RegExp(`^\\+${prefix}[0-9]{${n}}$`), `+${prefix} and ${n} digits`, 7, 15);
const iban = shaped(/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, 'an IBAN without spaces', 15, 34);
const ibanOf = (country: string, rest: string, length: number) =>
  shaped(new RegExp(`^${country}${rest}$`), `a ${country} IBAN (${length} characters)`, length, length);
const bankAccountType = (r = true) => oneOf(r, ['CHECKING', 'SAVINGS']);
const region = (values: string[]) => oneOf(true, values);
const address = text(512);

const BANK = ['BANK_TRANSFER'];
const BANK_OR_MOBILE = ['BANK_TRANSFER', 'MOBILE_MONEY'];
const MOBILE = ['MOBILE_MONEY'];
const SEPA = ['SEPA', 'SEPA_INSTANT'];
const NO_EXTRA = { required: [], extra: [] };

function local(
  currency: string,
  description: string,
  paymentRails: string[],
  fields: Record<string, AccountField>,
  identifiers: string[],
  beneficiary: { required: readonly string[]; extra: readonly string[] } = NO_EXTRA,
): [string, AccountTypeSpec] {
  return [
    `${currency}_ACCOUNT`,
    { description, currencies: [currency], identifiers, fields, paymentRails, beneficiary },
  ];
}
const wallet = (
  name: string,
  description: string,
  fields: Record<string, AccountField> = { address: address() },
): [string, AccountTypeSpec] => [
  name,
  { description, currencies: 'any', identifiers: Object.keys(fields), fields, paymentRails: [] },
];
const mobile = (currency: string, country: string, phoneNumber: AccountField, extra = {}) =>
  local(currency, `Mobile money wallet (${country}).`, MOBILE, { phoneNumber, provider: provider(), ...extra }, [
    'phoneNumber',
  ]);
const swiftBank = (currency: string, country: string, rails = BANK) =>
  local(
    currency,
    `Bank account in ${country}.`,
    rails,
    { accountNumber: accountNumber(), bankName: bankName(), swiftCode: swiftCode() },
    ['accountNumber'],
  );

export const ACCOUNT_TYPES: Readonly<Record<string, AccountTypeSpec>> = Object.fromEntries([
  local('AED', 'UAE bank account.', BANK, { iban: ibanOf('AE', '[0-9]{21}', 23)(), swiftCode: swiftCode(false) }, [
    'iban',
  ]),
  local(
    'BDT',
    'Bangladeshi bank account or mobile wallet.',
    BANK_OR_MOBILE,
    {
      accountNumber: accountNumber(false),
      bankName: bankName(),
      branchCode: digits(5)(false),
      swiftCode: swiftCode(false),
      phoneNumber: phone(false),
    },
    ['accountNumber', 'phoneNumber'],
  ),
  local(
    'BRL',
    'Brazilian PIX key.',
    ['PIX'],
    {
      pixKey: text(77)(),
      pixKeyType: oneOf(true, ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']),
      taxId: digits(11, 14)(),
    },
    ['pixKey'],
  ),
  mobile('BWP', 'Botswana', phone()),
  local(
    'CAD',
    'Canadian bank account.',
    BANK,
    { accountNumber: digits(7, 12)(), bankCode: digits(3)(), branchCode: digits(5)() },
    ['accountNumber'],
    { required: [], extra: ['registrationNumber'] },
  ),
  local(
    'COP',
    'Colombian bank account or mobile wallet.',
    BANK_OR_MOBILE,
    {
      accountNumber: accountNumber(false),
      bankAccountType: bankAccountType(false),
      bankName: bankName(),
      phoneNumber: phone(false),
    },
    ['accountNumber', 'phoneNumber'],
    { required: [], extra: ['documentType', 'documentNumber'] },
  ),
  local('DKK', 'Danish bank account.', SEPA, { iban: ibanOf('DK', '[0-9]{16}', 18)(), swiftCode: swiftCode(false) }, [
    'iban',
  ]),
  local(
    'EGP',
    'Egyptian bank account or mobile wallet.',
    BANK_OR_MOBILE,
    { iban: ibanOf('EG', '[0-9]{27}', 29)(false), bankName: bankName(), phoneNumber: phone(false) },
    ['iban', 'phoneNumber'],
  ),
  local('EUR', 'SEPA bank account in euros.', SEPA, { iban: iban(), swiftCode: swiftCode(false) }, ['iban'], {
    required: ['address'],
    extra: [],
  }),
  local('GBP', 'UK bank account.', ['FASTER_PAYMENTS'], { accountNumber: digits(8)(), sortCode: digits(6)() }, [
    'accountNumber',
  ]),
  local(
    'GHS',
    'Ghanaian bank account or mobile wallet.',
    BANK_OR_MOBILE,
    { accountNumber: accountNumber(false), bankName: bankName(), phoneNumber: phone(false) },
    ['accountNumber', 'phoneNumber'],
  ),
  local(
    'GTQ',
    'Guatemalan bank account.',
    BANK,
    { accountNumber: accountNumber(), bankAccountType: bankAccountType() },
    ['accountNumber'],
    { required: ['countryOfResidence', 'phoneNumber'], extra: [] },
  ),
  swiftBank('HKD', 'Hong Kong'),
  local('HTG', 'Haitian mobile wallet.', MOBILE, { phoneNumber: phone() }, ['phoneNumber']),
  local(
    'IDR',
    'Indonesian bank account.',
    BANK,
    {
      accountNumber: accountNumber(),
      bankName: bankName(),
      swiftCode: swiftCode(),
      phoneNumber: phoneOf('62', '9,12')(),
    },
    ['accountNumber'],
  ),
  local(
    'INR',
    'Indian UPI address.',
    ['UPI'],
    { vpa: shaped(/^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/, 'a UPI address such as name@bank', 3, 255)() },
    ['vpa'],
  ),
  local(
    'JMD',
    'Jamaican bank account.',
    BANK,
    { accountNumber: accountNumber(), branchCode: digits(5)(), bankAccountType: bankAccountType() },
    ['accountNumber'],
    { required: ['address', 'phoneNumber'], extra: [] },
  ),
  mobile('KES', 'Kenya', phoneOf('254', '9')()),
  mobile('MWK', 'Malawi', phone()),
  local('MXN', 'Mexican bank account (SPEI).', ['SPEI'], { clabeNumber: digits(18)() }, ['clabeNumber']),
  swiftBank('MYR', 'Malaysia'),
  local('NGN', 'Nigerian bank account.', BANK, { accountNumber: digits(10)(), bankName: bankName() }, [
    'accountNumber',
  ]),
  local('PHP', 'Philippine bank account.', BANK, { accountNumber: digits(8, 16)(), bankName: bankName() }, [
    'accountNumber',
  ]),
  local(
    'PKR',
    'Pakistani bank account or mobile wallet.',
    BANK_OR_MOBILE,
    {
      bankName: bankName(),
      accountNumber: accountNumber(false),
      iban: ibanOf('PK', '[0-9]{2}[A-Z]{4}[0-9]{16}', 24)(false),
      phoneNumber: phone(false),
    },
    ['accountNumber', 'iban', 'phoneNumber'],
  ),
  mobile('RWF', 'Rwanda', phoneOf('250', '9')()),
  swiftBank('SGD', 'Singapore', ['PAYNOW', 'FAST', 'BANK_TRANSFER']),
  local(
    'SLV',
    'Salvadoran bank account or mobile wallet.',
    BANK_OR_MOBILE,
    {
      bankName: bankName(false),
      accountNumber: accountNumber(false),
      bankAccountType: bankAccountType(false),
      phoneNumber: phone(false),
    },
    ['accountNumber', 'phoneNumber'],
  ),
  swiftBank('THB', 'Thailand'),
  mobile('TZS', 'Tanzania', phoneOf('255', '9')()),
  mobile('UGX', 'Uganda', phone()),
  local(
    'USD',
    'US bank account.',
    ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    {
      accountNumber: accountNumber(),
      routingNumber: digits(9)(),
      bankAccountType: bankAccountType(false),
      accountCategory: bankAccountType(false),
      bankName: bankName(false),
    },
    ['accountNumber'],
  ),
  swiftBank('VND', 'Vietnam'),
  mobile('XAF', 'Central Africa (CEMAC)', phone(), { region: region(['CM', 'CG']) }),
  mobile('XOF', 'West Africa (UEMOA)', phone(), { region: region(['BJ', 'CI', 'SN', 'TG']) }),
  local('ZAR', 'South African bank account.', BANK, { accountNumber: digits(9, 13)(), bankName: bankName() }, [
    'accountNumber',
  ]),
  mobile('ZMW', 'Zambia', phoneOf('260', '9')()),
  [
    'SWIFT_ACCOUNT',
    {
      description: 'Bank account reached over SWIFT, in any currency.',
      currencies: 'any',
      identifiers: ['iban', 'accountNumber'],
      fields: {
        country: shaped(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code', 2, 2)(),
        swiftCode: swiftCode(),
        bankName: bankName(),
        accountNumber: accountNumber(false),
        iban: iban(false),
      },
      paymentRails: ['SWIFT'],
      beneficiary: NO_EXTRA,
    },
  ],
  wallet('BASE_WALLET', 'Wallet on Base.'),
  wallet('ETHEREUM_WALLET', 'Wallet on Ethereum.'),
  wallet('LIGHTNING', 'Lightning: an invoice, a BOLT12 offer or a Lightning address.', {
    invoice: text(4096)(false),
    bolt12: text(4096)(false),
    lightningAddress: text(512)(false),
  }),
  wallet('POLYGON_WALLET', 'Wallet on Polygon.'),
  wallet('SOLANA_WALLET', 'Wallet on Solana.'),
  wallet('SPARK_WALLET', 'Spark wallet.'),
  wallet('TRON_WALLET', 'Wallet on Tron.'),
]);

export const ACCOUNT_TYPE_NAMES = Object.keys(ACCOUNT_TYPES);

/** Individual beneficiary fields every bank account type takes; some types add or require more. */
export const INDIVIDUAL_BENEFICIARY_FIELDS = [
  'fullName',
  'birthDate',
  'nationality',
  'email',
  'phoneNumber',
  'countryOfResidence',
] as const;
export const BUSINESS_BENEFICIARY_FIELDS = [
  'legalName',
  'registrationNumber',
  'taxId',
  'email',
  'phoneNumber',
  'countryOfResidence',
] as const;
export const ADDRESS_FIELDS = { required: ['line1', 'postalCode', 'country'], optional: ['line2', 'city', 'state'] };
