/** The columns of a full header of the bulk customer import's CSV (`POST /customers/bulk/csv`). */
export const CUSTOMER_CSV_COLUMNS = [
  'umaAddress',
  'platformCustomerId',
  'customerType',
  'fullName',
  'birthDate',
  'email',
  'businessLegalName',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
];

export type CsvRow = Record<string, string>;

const ADDRESS: CsvRow = { addressLine1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };

/** A valid individual row named after `id` (its UMA address without `$`, as the public API's example). */
export const individualRow = (id: string, extra: CsvRow = {}): CsvRow => ({
  umaAddress: `${id}@bulk.example.com`,
  platformCustomerId: id,
  customerType: 'INDIVIDUAL',
  fullName: `Ada ${id}`,
  birthDate: '1990-01-15',
  ...ADDRESS,
  ...extra,
});

/** A valid business row named after `id`. */
export const businessRow = (id: string, extra: CsvRow = {}): CsvRow => ({
  umaAddress: `$${id}@bulk.example.com`,
  platformCustomerId: id,
  customerType: 'BUSINESS',
  businessLegalName: `Acme ${id}`,
  ...ADDRESS,
  ...extra,
});
