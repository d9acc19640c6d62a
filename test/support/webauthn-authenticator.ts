import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator: real P-256 keys, `none` attestation, COSE public keys and
 * authenticatorData built byte by byte as the WebAuthn spec lays them out. It produces the
 * request bodies the API expects (`clientDataJson`, `attestationObject`, `authenticatorData`, ...).
 */
export interface RegistrationResponse {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

export interface AssertionResponse {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export interface CeremonyInput {
  challenge: string;
  origin: string;
  rpId: string;
}

/** Authenticator data flag bits: user present, user verified, attested credential data included. */
const FLAG = { UP: 0x01, UV: 0x04, AT: 0x40 } as const;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  signCount: number;
  rpId: string;
  userHandle?: string;
}

export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, StoredCredential>();

  constructor(
    private readonly options: {
      /** Clear UV to test that user verification is required (per assertion: `assert(..., {userVerified})`). */
      userVerified?: boolean;
      /** Signature counter increment per use; 0 models authenticators that never count. */
      counterStep?: number;
    } = {},
  ) {}

  register(input: CeremonyInput & { userHandle?: string }): RegistrationResponse {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(32);
    const credentialId = id.toString('base64url');
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const stored: StoredCredential = { id, privateKey, signCount: 0, rpId: input.rpId, userHandle: input.userHandle };
    this.credentials.set(credentialId, stored);
    const attestedData = Buffer.concat([Buffer.alloc(16), u16(id.length), id, coseKey]);
    const authData = this.authenticatorData(stored, FLAG.AT, attestedData);
    const clientData = clientDataJson('webauthn.create', input);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      credentialId,
      clientDataJson: clientData.toString('base64url'),
      attestationObject: attestationObject.toString('base64url'),
      transports: ['internal'],
    };
  }

  /** Signs an assertion; each call advances the credential's signature counter. */
  assert(credentialId: string, input: CeremonyInput & { userVerified?: boolean }): AssertionResponse {
    const stored = this.credentials.get(credentialId);
    if (!stored) throw new Error(`unknown credential ${credentialId}`);
    const authData = this.authenticatorData(stored, 0, undefined, input.userVerified);
    const clientData = clientDataJson('webauthn.get', input);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    const signature = sign('sha256', signed, { key: stored.privateKey, dsaEncoding: 'der' });
    return {
      credentialId,
      clientDataJson: clientData.toString('base64url'),
      authenticatorData: authData.toString('base64url'),
      signature: signature.toString('base64url'),
      ...(stored.userHandle ? { userHandle: Buffer.from(stored.userHandle).toString('base64url') } : {}),
    };
  }

  private authenticatorData(
    stored: StoredCredential,
    extraFlags: number,
    attestedData = Buffer.alloc(0),
    userVerified = this.options.userVerified,
  ): Buffer {
    stored.signCount += this.options.counterStep ?? 1;
    const flags = FLAG.UP | (userVerified === false ? 0 : FLAG.UV) | extraFlags;
    const rpIdHash = createHash('sha256').update(stored.rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), u32(stored.signCount), attestedData]);
  }
}

function clientDataJson(type: 'webauthn.create' | 'webauthn.get', input: CeremonyInput): Buffer {
  return Buffer.from(
    JSON.stringify({ type, challenge: input.challenge, origin: input.origin, crossOrigin: false }),
    'utf8',
  );
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** The subset of CBOR (RFC 8949) that attestation objects and COSE keys need, with definite lengths. */
export function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.concat([Buffer.from([(major << 5) | 25]), u16(n)]);
    return Buffer.concat([Buffer.from([(major << 5) | 26]), u32(n)]);
  };
  if (typeof value === 'number' && Number.isInteger(value)) return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  if (value instanceof Map) {
    const parts: Buffer[] = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new TypeError(`cannot encode ${typeof value} as CBOR`);
}
