import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Address, BusinessInfo, CustomerType, KycStatus } from '#domain/customers/customer.js';
import type { DocumentDetails } from '#domain/documents/document.js';
import { DomainError, notFound } from '#domain/errors.js';
import { compact, streams } from '#domain/primitives.js';
import {
  KYC_LINK_PROVIDER,
  hashKycSecret,
  issuedLink,
  kycLinkDecider,
  kycLinkStatus,
  kycSecretMatches,
  kycToken,
  linkNotFound,
  parseKycToken,
  type IssuedKycLink,
  type KycLinkCommand,
  type KycLinkStatus,
} from '#domain/kyc-links/kyc-link.js';
import { missingVerificationFields } from '#domain/verifications/verification.js';
import { CommandContext } from '../command-context.js';
import { UploadDocumentCommand, type ReceivedFile } from '../documents/document-commands.js';
import { UpdateCustomerCommand, loadOwnCustomer } from '../customers/customer-commands.js';
import type { Actor } from '../tokens.js';
import { CreateVerificationCommand } from '../verifications/verification-commands.js';
import { effectId } from '../idempotency/effect-ids.js';

/** What the hosted page may fill in: the fields a verification needs. */
export interface KycSubmission {
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
}

/** What the page shows its holder: never more of the customer than which fields are missing. */
export interface KycLinkView {
  customerType: CustomerType;
  linkStatus: KycLinkStatus;
  kycStatus: KycStatus;
  expiresAt: string;
  /** Field paths a verification still lacks (`fullName`, `address.postalCode`, ...). */
  missing: string[];
}

/**
 * Hosted KYC links: the platform asks for a link for its customer (`POST /customers/{id}/kyc-link`), the customer
 * opens it on the service's page, which shows what the verification lacks and takes it. A submission is one
 * customer update and one verification, made as the platform would make them (same validation, events and
 * webhooks), with the link's id as the actor; in the sandbox the outcome follows the suffix rules on the platform's
 * clock at once. The link is spent before anything else, so it acts at most once; a submission cut off by a crash
 * after that needs a new link.
 */
@Injectable()
export class KycLinks {
  constructor(
    private readonly ctx: CommandContext,
    private readonly commands: CommandBus,
  ) {}

  /** Runs `command` on the link's stream, recorded as the actor's. */
  private record(linkId: string, command: KycLinkCommand, actor: Actor) {
    return this.ctx.runner.run(streams.kycLink(linkId), kycLinkDecider, command, { metadata: { ...actor } });
  }

  /** A new link for the platform's customer: its token (the secret part of the URL), expiry and provider. */
  async issue(customerId: string, redirectUri: string | undefined, actor: Actor) {
    const customer = await loadOwnCustomer(this.ctx.runner, customerId, actor);
    if (customer.isDeleted) throw notFound('CUSTOMER', customerId);
    const linkId = effectId(actor, this.ctx.ids);
    const secret = randomBytes(32).toString('base64url');
    const now = await this.ctx.nowIso(actor.platformId);
    const { state } = await this.record(
      linkId,
      {
        type: 'IssueKycLink',
        linkId,
        platformId: actor.platformId,
        customerId,
        secretHash: hashKycSecret(secret),
        ...(redirectUri ? { redirectUri } : {}),
        now,
      },
      actor,
    );
    return { token: kycToken(linkId, secret), expiresAt: issuedLink(state).expiresAt, provider: KYC_LINK_PROVIDER };
  }

  async view(token: string): Promise<KycLinkView> {
    const { link, secretHash } = await this.load(token);
    if (!kycSecretMatches(link, secretHash)) throw linkNotFound();
    const actor = this.actorOf(link);
    const customer = await loadOwnCustomer(this.ctx.runner, link.customerId, actor);
    const now = await this.ctx.nowIso(link.platformId);
    return {
      customerType: customer.customerType,
      linkStatus: customer.isDeleted ? 'EXPIRED' : kycLinkStatus(link, now),
      kycStatus: customer.kycStatus ?? 'PENDING',
      expiresAt: link.expiresAt,
      missing: missingVerificationFields(customer.customerType, customer.profile).map((e) => e.field),
    };
  }

  /**
   * A document the customer adds on the page (an identity document, say), held by the link's customer and made as
   * the platform's `POST /documents` would make it. Only while the link is active; the answer names the document
   * and nothing else.
   */
  async addDocument(token: string, details: DocumentDetails, file: ReceivedFile) {
    const { link, secretHash } = await this.load(token);
    if (!kycSecretMatches(link, secretHash)) throw linkNotFound();
    const actor = this.actorOf(link);
    const now = await this.ctx.nowIso(link.platformId);
    const status = kycLinkStatus(link, now);
    if (status !== 'ACTIVE') {
      const code = status === 'COMPLETED' ? 'KYC_LINK_USED' : 'KYC_LINK_EXPIRED';
      throw new DomainError('conflict', code, `this verification link is ${status.toLowerCase()}; ask for a new one`);
    }
    const id: string = await this.commands.execute(new UploadDocumentCommand(link.customerId, details, file, actor));
    return { id, documentType: details.documentType };
  }

  /** Spends the link, records the fields, submits the customer for verification; the outcome and where to go. */
  async submit(token: string, fields: KycSubmission): Promise<{ kycStatus: KycStatus; redirectUri?: string }> {
    const { link, secretHash } = await this.load(token);
    const actor = this.actorOf(link);
    const customer = await loadOwnCustomer(this.ctx.runner, link.customerId, actor);
    if (customer.isDeleted) throw linkNotFound();
    const now = await this.ctx.nowIso(link.platformId);
    await this.record(link.linkId, { type: 'CompleteKycLink', secretHash, now }, actor);
    const changes = compact(fields);
    if (Object.keys(changes).length > 0) {
      await this.commands.execute(new UpdateCustomerCommand(link.customerId, changes, actor));
    }
    await this.commands.execute(new CreateVerificationCommand(link.customerId, actor));
    const { kycStatus } = await loadOwnCustomer(this.ctx.runner, link.customerId, actor);
    return { kycStatus: kycStatus ?? 'PENDING', ...(link.redirectUri ? { redirectUri: link.redirectUri } : {}) };
  }

  private async load(token: string): Promise<{ link: IssuedKycLink; secretHash: string }> {
    const parsed = parseKycToken(token);
    if (!parsed) throw linkNotFound();
    const { state } = await this.ctx.runner.load(streams.kycLink(parsed.linkId), kycLinkDecider);
    return { link: issuedLink(state), secretHash: hashKycSecret(parsed.secret) };
  }

  private actorOf(link: IssuedKycLink): Actor {
    return { platformId: link.platformId, actor: `KycLink:${link.linkId}`, correlationId: link.linkId };
  }
}
