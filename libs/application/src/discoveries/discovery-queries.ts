import { Injectable } from '@nestjs/common';
import { discoveriesFor, type Discovery } from '#domain/discoveries/discoveries.js';

/** Receiving institutions by corridor (GET /discoveries); the same for every platform. */
@Injectable()
export class DiscoveryQueries {
  list(filter: { country?: string; currency?: string }): { data: Discovery[] } {
    return { data: discoveriesFor(filter) };
  }
}
