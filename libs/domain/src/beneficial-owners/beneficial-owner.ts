import { canonicalJson, compact } from '../primitives.js';
import type { Decider } from '../decider.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { KycStatus, OwnerOutcome } from '../customers/kyb.js';
import { sandboxOutcome } from '../customers/sandbox-kyc.js';

/**
 * A beneficial owner is a person who owns or controls a business customer: an ultimate owner,
 * a director, an officer... Each goes through KYC of its own when it is created and again when its
 * personal information changes. The business's KYB status takes the owners' outcomes into account
 * (customer/kyb.ts); the business learns them through its own stream.
 */
export const BENEFICIAL_OWNER_ROLES = [
  'UBO',
  'DIRECTOR',
  'COMPANY_OFFICER',
  'CONTROL_PERSON',
  'TRUSTEE',
  'GENERAL_PARTNER',
] as const;
export type BeneficialOwnerRole = (typeof BENEFICIAL_OWNER_ROLES)[number];

export const IDENTIFICATION_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;
export type IdentificationType = (typeof IDENTIFICATION_TYPES)[number];

export interface OwnerAddress {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface PersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  /** YYYY-MM-DD. */
  birthDate: string;
  /** ISO 3166-1 alpha-2. */
  nationality: string;
  email?: string;
  /** E.164. */
  phoneNumber?: string;
  address: OwnerAddress;
  idType: IdentificationType;
  identifier: string;
  countryOfIssuance?: string;
}

/** What an update may change; personal information field by field (an address as a whole). */
export interface BeneficialOwnerChanges {
  roles?: BeneficialOwnerRole[];
  ownershipPercentage?: number;
  personalInfo?: Partial<PersonalInfo>;
}

/** An owner's identity and facts, as the create command gives them and the snapshot keeps them. */
export interface NewBeneficialOwner {
  id: string;
  platformId: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: PersonalInfo;
}

export interface BeneficialOwnerSnapshot extends NewBeneficialOwner {
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

/** `version`: events folded so far, which orders the outcomes the business is told about. */
export type ExistingBeneficialOwner = { exists: true; owner: BeneficialOwnerSnapshot; version: number };

export type BeneficialOwnerState = { exists: false; owner?: undefined; version: number } | ExistingBeneficialOwner;

/** The owner the stream holds, or not found. */
export function requireOwner(state: BeneficialOwnerState): ExistingBeneficialOwner {
  if (!state.exists) throw notFound('BENEFICIAL_OWNER', 'unknown');
  return state;
}

export type BeneficialOwnerEvent =
  | {
      type: 'BeneficialOwnerCreated';
      data: { beneficialOwnerId: string; platformId: string; customerId: string; owner: BeneficialOwnerSnapshot };
    }
  | {
      type: 'BeneficialOwnerUpdated';
      data: {
        beneficialOwnerId: string;
        platformId: string;
        customerId: string;
        changes: BeneficialOwnerChanges;
        owner: BeneficialOwnerSnapshot;
      };
    };

/** `sandbox`: whether the platform is a sandbox one, whose KYC answers at once by the last name's suffix. */
export type BeneficialOwnerCommand =
  | ({ type: 'CreateBeneficialOwner'; sandbox: boolean; now: string } & NewBeneficialOwner)
  | { type: 'UpdateBeneficialOwner'; changes: BeneficialOwnerChanges; sandbox: boolean; now: string }
  /** A reviewer decided the owner's pending KYC (production KYC review of its business). */
  | { type: 'DecideBeneficialOwnerKyc'; kycStatus: 'APPROVED' | 'REJECTED'; now: string };

/**
 * The KYC outcome of an owner's personal information. Sandbox: the last three characters of the
 * last name, 001 PENDING, 002 REJECTED, anything else APPROVED. Without a provider (production
 * platforms here) a submission waits in PENDING.
 */
export const ownerKycStatus = (personalInfo: PersonalInfo, sandbox: boolean): KycStatus =>
  sandbox ? sandboxOutcome(personalInfo.lastName) : 'PENDING';

/** The owner's outcome as its business records it. */
export function ownerOutcome(state: BeneficialOwnerState): OwnerOutcome {
  const { owner, version } = requireOwner(state);
  return { beneficialOwnerId: owner.id, kycStatus: owner.kycStatus, version };
}

/** The BeneficialOwner resource: the platform stays inside. */
export function toBeneficialOwnerResource(owner: BeneficialOwnerSnapshot): Record<string, unknown> {
  const { platformId: _p, ...resource } = owner;
  return resource;
}

function checkPercentage(value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 100))
    throw invalid('INVALID_INPUT', 'ownershipPercentage must be an integer from 0 to 100', 'ownershipPercentage');
}

/** The fields given, without those left undefined. */
const given = <T extends object>(value: T): Partial<T> => compact(value);

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** A pending owner takes the reviewer's decision; an owner already decided keeps its outcome. */
function decideKyc(
  cmd: Extract<BeneficialOwnerCommand, { type: 'DecideBeneficialOwnerKyc' }>,
  state: BeneficialOwnerState,
) {
  const { owner: before } = requireOwner(state);
  if (before.kycStatus !== 'PENDING') return [];
  const owner = { ...before, kycStatus: cmd.kycStatus, updatedAt: cmd.now };
  const ids = { beneficialOwnerId: before.id, platformId: before.platformId, customerId: before.customerId };
  return [{ type: 'BeneficialOwnerUpdated' as const, data: { ...ids, changes: {}, owner } }];
}

function decide(cmd: BeneficialOwnerCommand, state: BeneficialOwnerState): BeneficialOwnerEvent[] {
  if (cmd.type === 'DecideBeneficialOwnerKyc') return decideKyc(cmd, state);
  if (cmd.type === 'CreateBeneficialOwner') {
    if (state.exists) throw conflict('BENEFICIAL_OWNER_EXISTS', `beneficial owner ${cmd.id} already exists`);
    checkPercentage(cmd.ownershipPercentage);
    const owner: BeneficialOwnerSnapshot = {
      id: cmd.id,
      platformId: cmd.platformId,
      customerId: cmd.customerId,
      roles: [...cmd.roles],
      ownershipPercentage: cmd.ownershipPercentage,
      personalInfo: cmd.personalInfo,
      kycStatus: ownerKycStatus(cmd.personalInfo, cmd.sandbox),
      createdAt: cmd.now,
      updatedAt: cmd.now,
    };
    const ids = { beneficialOwnerId: cmd.id, platformId: cmd.platformId, customerId: cmd.customerId };
    return [{ type: 'BeneficialOwnerCreated', data: { ...ids, owner } }];
  }
  const before = state.owner;
  if (!state.exists || !before) throw notFound('BENEFICIAL_OWNER', 'unknown');
  checkPercentage(cmd.changes.ownershipPercentage);
  const changes = given(cmd.changes);
  if (changes.personalInfo) changes.personalInfo = given(changes.personalInfo);
  const personalInfo: PersonalInfo = { ...before.personalInfo, ...changes.personalInfo };
  const roles = changes.roles ?? before.roles;
  const ownershipPercentage = changes.ownershipPercentage ?? before.ownershipPercentage;
  const identityChanged = !same(personalInfo, before.personalInfo);
  if (!identityChanged && same(roles, before.roles) && ownershipPercentage === before.ownershipPercentage) return [];
  // Changed personal information is checked again; roles and shares alone leave the outcome as it is.
  const kycStatus = identityChanged ? ownerKycStatus(personalInfo, cmd.sandbox) : before.kycStatus;
  const owner = { ...before, roles: [...roles], ownershipPercentage, personalInfo, kycStatus, updatedAt: cmd.now };
  const ids = { beneficialOwnerId: before.id, platformId: before.platformId, customerId: before.customerId };
  return [{ type: 'BeneficialOwnerUpdated', data: { ...ids, changes, owner } }];
}

function evolve(state: BeneficialOwnerState, event: BeneficialOwnerEvent): BeneficialOwnerState {
  return { exists: true, owner: event.data.owner, version: state.version + 1 };
}

export const beneficialOwnerDecider: Decider<BeneficialOwnerState, BeneficialOwnerCommand, BeneficialOwnerEvent> = {
  initialState: (): BeneficialOwnerState => ({ exists: false, version: 0 }),
  evolve,
  decide,
};
