import { publicIdPattern } from '#domain/primitives.js';

/** Input formats shared by the DTOs. */
export const CUSTOMER_ID = publicIdPattern('Customer');
export const BENEFICIAL_OWNER_ID = publicIdPattern('BeneficialOwner');
/** ISO 3166-1 alpha-2. */
export const COUNTRY = /^[A-Z]{2}$/;
/** A calendar date, YYYY-MM-DD. */
export const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** `$name@domain.tld`: a UMA address. */
export const UMA_ADDRESS = /^\$[A-Za-z0-9._-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
