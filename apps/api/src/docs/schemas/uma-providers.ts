import { obj, type Schema, str } from './kit.js';

export const umaProviderSchemas: Record<string, Schema> = {
  UmaProvider: obj(['name', 'supportedRegions', 'domain', 'logoUrl', 'supportedCurrencies', 'lei', 'allowListStatus'], {
    name: str(),
    supportedRegions: { type: 'array', items: str({ pattern: '^[A-Z]{2}$' }) },
    domain: str(),
    logoUrl: str({ format: 'uri' }),
    supportedCurrencies: { type: 'array', items: { $ref: '#/components/schemas/Currency' } },
    lei: str({ pattern: '^[A-Z0-9]{18}[0-9]{2}$', description: 'ISO 17442 Legal Entity Identifier.' }),
    allowListStatus: { type: 'boolean', description: 'false: the provider is blocked.' },
  }),
};
