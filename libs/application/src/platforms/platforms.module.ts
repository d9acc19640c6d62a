import { Module } from '@nestjs/common';
import { CreateApiTokenHandler, CreatePlatformHandler, RevokeApiTokenHandler } from './platform-commands.js';
import { PlatformConfigQueries, UpdatePlatformConfigHandler } from './platform-config.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/**
 * Platforms, their API tokens and their configuration.
 */
@Module({
  imports: [WebhooksModule],
  providers: [
    CreatePlatformHandler,
    CreateApiTokenHandler,
    RevokeApiTokenHandler,
    UpdatePlatformConfigHandler,
    PlatformConfigQueries,
  ],
  exports: [PlatformConfigQueries],
})
export class PlatformsModule {}
