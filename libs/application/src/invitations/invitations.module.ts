import { Module } from '@nestjs/common';
import { CancelInvitationHandler, ClaimInvitationHandler, CreateInvitationHandler } from './invitation-commands.js';
import { InvitationQueries } from './invitation-queries.js';

/**
 * UMA invitations.
 */
@Module({
  providers: [CreateInvitationHandler, CancelInvitationHandler, ClaimInvitationHandler, InvitationQueries],
  exports: [InvitationQueries],
})
export class InvitationsModule {}
