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
