import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalFilledText, OptionalText } from '../http/fields.js';
import { RequiredIf } from '../http/validation.js';

const AUTH_METHOD_TYPES = ['OAUTH', 'EMAIL_OTP', 'PASSKEY'] as const;
type AuthMethodTypeName = (typeof AUTH_METHOD_TYPES)[number];
const ACCOUNT_ID = /^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CLIENT_PUBLIC_KEY = /^04[0-9a-fA-F]{128}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const clientKeyMessage = {
  message: 'clientPublicKey must be an uncompressed P-256 public key: 04 followed by 128 hex characters',
};
const accountIdMessage = { message: 'accountId must have the form InternalAccount:<uuid>' };

/** WebAuthn registration response, with the API's field names (`clientDataJson`, `credentialId`). */
export class PasskeyAttestationDto {
  @Matches(BASE64URL, { message: 'credentialId must be base64url' }) @MaxLength(1024) credentialId!: string;
  @Matches(BASE64URL, { message: 'clientDataJson must be base64url' }) @MaxLength(8192) clientDataJson!: string;
  @Matches(BASE64URL, { message: 'attestationObject must be base64url' }) @MaxLength(65536) attestationObject!: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  transports?: string[];
}

/** WebAuthn authentication response, with the API's field names. */
export class PasskeyAssertionDto {
  @Matches(BASE64URL, { message: 'credentialId must be base64url' }) @MaxLength(1024) credentialId!: string;
  @Matches(BASE64URL, { message: 'clientDataJson must be base64url' }) @MaxLength(8192) clientDataJson!: string;
  @Matches(BASE64URL, { message: 'authenticatorData must be base64url' }) @MaxLength(8192) authenticatorData!: string;
  @Matches(BASE64URL, { message: 'signature must be base64url' }) @MaxLength(1024) signature!: string;
  @IsOptional() @Matches(BASE64URL, { message: 'userHandle must be base64url' }) @MaxLength(1024) userHandle?: string;
}

export class AddCredentialDto {
  @IsIn(AUTH_METHOD_TYPES) type!: AuthMethodTypeName;
  @Matches(ACCOUNT_ID, accountIdMessage) accountId!: string;
  @OptionalFilledText(100) nickname?: string;
  /** PASSKEY: the registration challenge issued by the integrator backend. */
  @RequiredIf((o: AddCredentialDto) => o.type === 'PASSKEY')
  @Matches(BASE64URL, { message: 'challenge must be base64url' })
  @MaxLength(1024)
  challenge?: string;
  @RequiredIf((o: AddCredentialDto) => o.type === 'PASSKEY')
  @IsObject()
  @ValidateNested()
  @Type(() => PasskeyAttestationDto)
  attestation?: PasskeyAttestationDto;
  @RequiredIf((o: AddCredentialDto) => o.type === 'OAUTH')
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  oidcToken?: string;
}

export class ListWalletQuery {
  @Matches(ACCOUNT_ID, accountIdMessage) accountId!: string;
}

export class CredentialChallengeDto {
  @IsOptional() @Matches(CLIENT_PUBLIC_KEY, clientKeyMessage) clientPublicKey?: string;
}

export class VerifyCredentialDto {
  @IsOptional() @IsIn(AUTH_METHOD_TYPES) type?: AuthMethodTypeName;
  @OptionalText(32) otp?: string;
  @OptionalFilledText(16384) oidcToken?: string;
  @IsOptional() @Matches(CLIENT_PUBLIC_KEY, clientKeyMessage) clientPublicKey?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => PasskeyAssertionDto) assertion?: PasskeyAssertionDto;
}

export class ClientPublicKeyDto {
  @Matches(CLIENT_PUBLIC_KEY, clientKeyMessage) clientPublicKey!: string;
}

export class UpdateWalletAccountDto {
  @IsBoolean({ message: 'privateEnabled must be true or false' }) privateEnabled!: boolean;
}
