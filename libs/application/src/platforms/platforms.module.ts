import { Global, Module } from '@nestjs/common';
import { CreateApiTokenHandler, CreatePlatformHandler, RevokeApiTokenHandler } from './platform-commands.js';

/**
 * Platforms and their API tokens.
 */
@Global()
@Module({ providers: [CreatePlatformHandler, CreateApiTokenHandler, RevokeApiTokenHandler], exports: [] })
export class PlatformsModule {}
