/** OpenAPI prose of the invitations routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of invitations.controller.ts, by handler. */
export const INVITATIONS_TEXT = {
  create:
    'inviterUma must be the UMA address of one of the platform’s customers; amountToSend is in ' +
    'the smallest unit of that customer’s first currency. expiresAt defaults to 30 days ahead (at most 365).',
  list: 'Newest first. EXPIRED: unclaimed and past expiresAt.',
  get: 'Any platform holding the code may read it (the invitee’s platform shows it before claiming).',
  cancel: 'Only PENDING invitations of this platform.',
  claim:
    'Called by the invitee’s platform (any platform). Only PENDING invitations; claimed, ' +
    'cancelled or expired ones answer 409 INVALID_STATE_TRANSITION. Emits INVITATION_CLAIMED to ' +
    'the inviter’s platform, which then sends amountToSend itself: claiming moves no money.',
};
