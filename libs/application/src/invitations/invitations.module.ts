import { Global, Module } from '@nestjs/common';
import { CancelInvitationHandler, ClaimInvitationHandler, CreateInvitationHandler } from './invitation-commands.js';
import { InvitationQueries } from './invitation-queries.js';

/**
 * UMA invitations.
 */
@Global()
@Module({
  providers: [CreateInvitationHandler, CancelInvitationHandler, ClaimInvitationHandler, InvitationQueries],
  exports: [InvitationQueries],
})
export class InvitationsModule {}
