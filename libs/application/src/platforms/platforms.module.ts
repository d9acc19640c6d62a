import { Global, Module } from '@nestjs/common';
import { CreateApiTokenHandler, CreatePlatformHandler, RevokeApiTokenHandler } from './platform-commands.js';
import { PlatformConfigQueries, UpdatePlatformConfigHandler } from './platform-config.js';

/**
 * Platforms, their API tokens and their configuration.
 */
@Global()
@Module({
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
