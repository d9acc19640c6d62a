import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import {
  accessTokenStream,
  agentClaimDecider,
  DEVICE_CODE,
  DEVICE_CODE_LIFETIME_MS,
  deviceCodeFrom,
  deviceCodeStream,
  hashDeviceCode,
} from '#domain/agents/agent-claims.js';
import { agentDecider, agentStream, requireAgent } from '#domain/agents/agent.js';
import type { AgentCommand, AgentPolicy, AgentPolicyUpdate, DeviceCode } from '#domain/agents/agent-types.js';
import { policyResource } from '#domain/agents/agent-policy.js';
import { toAgentResource } from '#domain/agents/agent-views.js';
import { conflict, DomainError, notFound } from '#domain/errors.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../command-runner.js';
import { loadOwnCustomer } from '../customers/customer-commands.js';
import { PlatformClocks } from '../command-context.js';
import { IDS, READ_MODELS, type Actor } from '../tokens.js';
import { platformCustomerIdOf } from '../payments/transactions/payment-accounts.js';
import { hashAccessToken, loadOwnAgent, newAccessToken } from './agent-access.js';
import { effectId } from '../idempotency/effect-ids.js';

export class CreateAgentCommand {
  constructor(
    readonly input: { name: string; customerId: string; policy: AgentPolicy },
    readonly actor: Actor,
  ) {}
}
export class UpdateAgentCommand {
  constructor(
    readonly agentId: string,
    readonly input: { name?: string; isPaused?: boolean },
    readonly actor: Actor,
  ) {}
}
export class UpdateAgentPolicyCommand {
  constructor(
    readonly agentId: string,
    readonly update: AgentPolicyUpdate,
    readonly actor: Actor,
  ) {}
}
export class DeleteAgentCommand {
  constructor(
    readonly agentId: string,
    readonly actor: Actor,
  ) {}
}
export class IssueDeviceCodeCommand {
  constructor(
    readonly agentId: string,
    readonly actor: Actor,
  ) {}
}
export class RedeemDeviceCodeCommand {
  constructor(
    readonly code: string,
    readonly correlationId: string,
  ) {}
}

/** Shared by the agent handlers: run one command on a live agent of the caller's platform. */
abstract class AgentHandler {
  constructor(
    protected readonly runner: CommandRunner,
    protected readonly clocks: PlatformClocks,
  ) {}

  protected async now(platformId: string): Promise<string> {
    return (await this.clocks.now(platformId)).toISOString();
  }

  protected async apply(agentId: string, actor: Actor, command: (now: string) => AgentCommand) {
    await loadOwnAgent(this.runner, agentId, actor.platformId);
    const now = await this.now(actor.platformId);
    const { state } = await this.runner.run(agentStream(agentId), agentDecider, command(now), {
      metadata: { ...actor },
    });
    return { state, now };
  }

  /**
   * A fresh device code, claimed for the agent by its hash (a collision with an existing code draws again): `code`
   * for the answer, `deviceCode` (the hash) for the agent's stream.
   */
  protected async claimDeviceCode(
    agentId: string,
    platformId: string,
    now: string,
  ): Promise<{ code: string; deviceCode: DeviceCode }> {
    for (let attempt = 0; ; attempt++) {
      const code = deviceCodeFrom(randomBytes(8));
      const codeHash = hashDeviceCode(code);
      try {
        await this.runner.run(
          deviceCodeStream(codeHash),
          agentClaimDecider,
          { type: 'ClaimAgentKey', platformId, agentId, kind: 'DEVICE_CODE' },
          { metadata: { platformId, actor: agentId, correlationId: agentId }, answersAfter: 'append' },
        );
        const expiresAt = new Date(Date.parse(now) + DEVICE_CODE_LIFETIME_MS).toISOString();
        return { code, deviceCode: { codeHash, expiresAt, redeemed: false } };
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'CONFLICT') || attempt >= 5) throw error;
      }
    }
  }
}

@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler extends AgentHandler implements ICommandHandler<CreateAgentCommand> {
  constructor(
    runner: CommandRunner,
    clocks: PlatformClocks,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {
    super(runner, clocks);
  }

  async execute({ input, actor }: CreateAgentCommand) {
    const customer = await loadOwnCustomer(this.runner, input.customerId, actor);
    if (customer.isDeleted) throw notFound('CUSTOMER', input.customerId);
    const agentId = publicId('Agent', effectId(actor, this.ids));
    const now = await this.now(actor.platformId);
    const { code, deviceCode } = await this.claimDeviceCode(agentId, actor.platformId, now);
    const platformCustomerId = await platformCustomerIdOf(this.readModels, input.customerId);
    const { state } = await this.runner.run(
      agentStream(agentId),
      agentDecider,
      {
        type: 'CreateAgent',
        platformId: actor.platformId,
        agentId,
        name: input.name,
        customerId: input.customerId,
        platformCustomerId,
        policy: input.policy,
        deviceCode,
        now,
      },
      { metadata: { ...actor } },
    );
    return {
      agent: toAgentResource(requireAgent(state).agent, now),
      deviceCode: shownDeviceCode(code, deviceCode, agentId),
    };
  }
}

@CommandHandler(UpdateAgentCommand)
export class UpdateAgentHandler extends AgentHandler implements ICommandHandler<UpdateAgentCommand> {
  constructor(runner: CommandRunner, clocks: PlatformClocks) {
    super(runner, clocks);
  }

  async execute({ agentId, input, actor }: UpdateAgentCommand) {
    const { state, now } = await this.apply(agentId, actor, (now) => ({ type: 'UpdateAgent', ...input, now }));
    return toAgentResource(requireAgent(state).agent, now);
  }
}

@CommandHandler(UpdateAgentPolicyCommand)
export class UpdateAgentPolicyHandler extends AgentHandler implements ICommandHandler<UpdateAgentPolicyCommand> {
  constructor(runner: CommandRunner, clocks: PlatformClocks) {
    super(runner, clocks);
  }

  async execute({ agentId, update, actor }: UpdateAgentPolicyCommand) {
    const { state, now } = await this.apply(agentId, actor, (now) => ({ type: 'UpdateAgentPolicy', update, now }));
    return toAgentResource(requireAgent(state).agent, now);
  }
}

@CommandHandler(DeleteAgentCommand)
export class DeleteAgentHandler extends AgentHandler implements ICommandHandler<DeleteAgentCommand> {
  constructor(runner: CommandRunner, clocks: PlatformClocks) {
    super(runner, clocks);
  }

  async execute({ agentId, actor }: DeleteAgentCommand) {
    await this.apply(agentId, actor, (now) => ({ type: 'DeleteAgent', now }));
  }
}

@CommandHandler(IssueDeviceCodeCommand)
export class IssueDeviceCodeHandler extends AgentHandler implements ICommandHandler<IssueDeviceCodeCommand> {
  constructor(runner: CommandRunner, clocks: PlatformClocks) {
    super(runner, clocks);
  }

  async execute({ agentId, actor }: IssueDeviceCodeCommand) {
    const state = await loadOwnAgent(this.runner, agentId, actor.platformId);
    if (state.agent.isConnected)
      throw conflict(
        'CONFLICT',
        'the agent already has an active connection; a new device code is issued only before it connects',
      );
    const now = await this.now(actor.platformId);
    const { code, deviceCode } = await this.claimDeviceCode(agentId, actor.platformId, now);
    await this.runner.run(
      agentStream(agentId),
      agentDecider,
      { type: 'IssueDeviceCode', deviceCode, now },
      { metadata: { ...actor } },
    );
    return shownDeviceCode(code, deviceCode, agentId);
  }
}

/** A device code as the answer that issues it shows it: the only place the plain code appears. */
const shownDeviceCode = (code: string, { expiresAt, redeemed }: DeviceCode, agentId: string) => ({
  code,
  expiresAt,
  redeemed,
  agentId,
});

/**
 * The agent a device code was issued to (404 for an unknown code or a deleted agent), found by the code's hash;
 * `codeHash` is what the agent's stream holds.
 */
export async function loadDeviceCode(runner: CommandRunner, code: string, platformId?: string) {
  if (!DEVICE_CODE.test(code)) throw notFound('DEVICE_CODE', code);
  const codeHash = hashDeviceCode(code);
  let { state: claim } = await runner.load(deviceCodeStream(codeHash), agentClaimDecider);
  // A code issued before codes were hashed was claimed under its plain value.
  if (!claim.agentId) ({ state: claim } = await runner.load(deviceCodeStream(code), agentClaimDecider));
  if (!claim.agentId || (platformId !== undefined && claim.platformId !== platformId))
    throw notFound('DEVICE_CODE', code);
  const { state } = await runner.load(agentStream(claim.agentId), agentDecider);
  if (!state.agent || state.deleted) throw notFound('DEVICE_CODE', code);
  return { agentId: claim.agentId, platformId: claim.platformId, state, codeHash };
}

/**
 * Redeems a device code without authentication: the access token is generated here, returned
 * once and only its SHA-256 is kept (a claim stream pointing to the agent, and the agent's stream).
 */
@CommandHandler(RedeemDeviceCodeCommand)
export class RedeemDeviceCodeHandler extends AgentHandler implements ICommandHandler<RedeemDeviceCodeCommand> {
  constructor(runner: CommandRunner, clocks: PlatformClocks) {
    super(runner, clocks);
  }

  async execute({ code, correlationId }: RedeemDeviceCodeCommand) {
    const { agentId, platformId, codeHash } = await loadDeviceCode(this.runner, code);
    const now = await this.now(platformId);
    const accessToken = newAccessToken();
    const tokenHash = hashAccessToken(accessToken);
    const metadata = { platformId, actor: 'device-code', correlationId };
    await this.runner.run(
      accessTokenStream(tokenHash),
      agentClaimDecider,
      { type: 'ClaimAgentKey', platformId, agentId, kind: 'ACCESS_TOKEN' },
      { metadata, answersAfter: 'append' },
    );
    const { state } = await this.runner.run(
      agentStream(agentId),
      agentDecider,
      { type: 'RedeemDeviceCode', codeHash, tokenHash, now },
      { metadata },
    );
    const { agent } = requireAgent(state);
    return { agentId, agentName: agent.name, accessToken, policy: policyResource(agent.policy) };
  }
}
