/** OpenAPI prose of the beneficial-owners routes (the descriptions the controllers' decorators name). */

export const KYB =
  'The business’s KYB status (kybStatus) takes its owners into account: it is APPROVED only when its own ' +
  'check and every owner are, otherwise the worst of them (REJECTED before PENDING); each change of it ' +
  'sends CUSTOMER.KYB_<STATUS>.';

/** Descriptions of the routes of beneficial-owners.controller.ts, by handler. */
export const BENEFICIAL_OWNERS_TEXT = {
  create:
    'Adds an owner, director or officer to a BUSINESS customer of the platform (another platform’s or ' +
    'an unknown customer: 404; an INDIVIDUAL: 400 INVALID_INPUT on customerId). The owner goes through ' +
    'KYC at once. Sandbox: the last three characters of personalInfo.lastName select 001 PENDING, ' +
    `002 REJECTED, otherwise APPROVED; production platforms start PENDING. ${KYB}`,
  list: 'Newest first. An unknown or another platform’s customer is 404; an INDIVIDUAL is 400.',
  update:
    'Only the fields given change; personalInfo field by field (an address as a whole). Changed ' +
    'personal information is checked again (sandbox: by the last name’s suffix; production: PENDING); ' +
    `roles and ownershipPercentage alone keep the KYC status. ${KYB}`,
};
