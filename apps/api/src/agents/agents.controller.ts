import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AgentActions } from '#application/agents/agent-actions.js';
import {
  CreateAgentCommand,
  DeleteAgentCommand,
  IssueDeviceCodeCommand,
  loadDeviceCode,
  RedeemDeviceCodeCommand,
  UpdateAgentCommand,
  UpdateAgentPolicyCommand,
} from '#application/agents/agent-commands.js';
import { AgentQueries } from '#application/agents/agent-queries.js';
import { CommandRunner } from '#application/command-runner.js';
import type { Actor } from '#application/tokens.js';
import type { AgentPolicy, AgentPolicyUpdate } from '#domain/agents/agent-types.js';
import { ApiDoc, ApiResource, created, noContent, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor, Public } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { IdParam } from '../http/id-pipe.js';
import { DEVICE_CODE_POLICY, RateLimit, RateLimitGuard } from '../http/rate-limit.js';
import { Idempotent, IdempotentAction, SecretOnce } from '../http/idempotency.interceptor.js';
import {
  AgentPolicyUpdateDto,
  CreateAgentDto,
  ListAgentsQuery,
  ListApprovalsQuery,
  RejectAgentActionDto,
  UpdateAgentDto,
} from './agent.dto.js';

const POLICY_TEXT =
  'Policy evaluation, at the moment of each action: every account the agent names (source or ' +
  'destination, internal or external) must be its customer’s, any other answers 404 as an unknown ' +
  'account; a paused agent, a missing permission or an internal account (at either end) outside ' +
  'allowedAccountIds answer 403 FORBIDDEN; ' +
  'an amount (converted into spendingLimits.currency at the service rate) above the per-transaction ' +
  'limit (an account rule’s takes precedence), or past the daily count, ' +
  'daily amount or monthly amount (executed spends plus spends in flight, UTC day and month of the ' +
  'platform clock) answers 403 VELOCITY_LIMIT_EXCEEDED; ' +
  'APPROVAL_REQUIRED (the account rule’s mode, else the default) or an amount above ' +
  'approvalThresholds makes the action PENDING_APPROVAL.';

const DEVICE_CODE_LIMIT =
  'Redemptions and status reads together are limited per client address (`RATE_LIMIT_DEVICE_CODES` per ' +
  '`RATE_LIMIT_DEVICE_CODE_WINDOW_SECONDS`, 30 a minute by default): 429 RATE_LIMITED with Retry-After past that.';

/** Agents as the platform manages them (Basic auth); device-code redemption needs no auth. */
@ApiTags('Agents')
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentQueries,
    private readonly actions: AgentActions,
    private readonly runner: CommandRunner,
  ) {}

  @Post()
  @Idempotent()
  @SecretOnce('deviceCode.code')
  @ApiDoc({
    summary: 'Create an agent',
    description:
      `Creates an agent for a customer with a policy and returns its first device code ` +
      `(valid 24 hours on the platform clock; shown once: a replay with the same Idempotency-Key answers without ` +
      `deviceCode.code, issue a new one if it was lost). ${POLICY_TEXT}`,
    responses: created('The agent and its device code', 'AgentCreateResponse'),
    errors: [404],
  })
  create(@Body() body: CreateAgentDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new CreateAgentCommand({ ...body, policy: body.policy as AgentPolicy }, actor));
  }

  @GetPage('', 'List agents', 'agents', 'Agent', { description: 'Newest first; date filters are inclusive.' })
  list(@Query() q: ListAgentsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listAgents(actor.platformId, q);
  }

  @GetPage('approvals', 'List actions pending approval', 'agent actions', 'AgentAction', {
    description:
      'Agent actions in PENDING_APPROVAL, newest first unless sortOrder=asc; dates (createdAt) are inclusive.',
  })
  approvals(@Query() q: ListApprovalsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listApprovals(actor.platformId, q);
  }

  @GetOne(
    'device-codes/:code/status',
    'Device code status',
    ok('The code and whether it was redeemed', 'AgentDeviceCodeStatus'),
    {
      description: `Poll until \`redeemed\` is true. ${DEVICE_CODE_LIMIT}`,
      errors: [429],
    },
  )
  @RateLimit(DEVICE_CODE_POLICY)
  @UseGuards(RateLimitGuard)
  async deviceCodeStatus(@Param('code') code: string, @CurrentActor() actor: Actor) {
    const { state, codeHash } = await loadDeviceCode(this.runner, code, actor.platformId);
    return { code, redeemed: state.deviceCode?.codeHash === codeHash ? state.deviceCode.redeemed : false };
  }

  @Post('device-codes/:code/redeem')
  @Public()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Redeem a device code',
    description:
      'No authentication. Returns the agent’s access token once (only its hash is kept; it cannot ' +
      'be retrieved again) and marks the agent connected. 400 when the code was already redeemed, ' +
      `replaced by a newer one or expired; 404 when unknown. ${DEVICE_CODE_LIMIT}`,
    auth: 'none',
    responses: {
      200: { description: 'The access token and the agent’s policy', schema: 'AgentDeviceCodeRedeemResponse' },
    },
    errors: [400, 404, 429],
  })
  @RateLimit(DEVICE_CODE_POLICY)
  @UseGuards(RateLimitGuard)
  redeem(@Param('code') code: string) {
    return this.commands.execute(new RedeemDeviceCodeCommand(code, randomUUID()));
  }

  @GetOne(':agentId', 'Get an agent', ok('The agent', 'Agent'), {
    description: 'Usage counters as of the platform clock.',
  })
  get(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.agent(actor.platformId, id);
  }

  @Patch(':agentId')
  @ApiResource('Rename or pause an agent', ok('The agent', 'Agent'), {
    description: 'A paused agent cannot initiate actions (403) until unpaused; its configuration is kept.',
  })
  update(@IdParam('Agent', 'agentId') id: string, @Body() body: UpdateAgentDto, @CurrentActor() actor: Actor) {
    if (body.name === undefined && body.isPaused === undefined)
      throw invalidInput([{ field: 'name', constraint: 'atLeastOne', message: 'give name and/or isPaused' }]);
    return this.commands.execute(new UpdateAgentCommand(id, body, actor));
  }

  @Delete(':agentId')
  @HttpCode(204)
  @ApiResource('Delete an agent', noContent('Deleted'), {
    description: 'Permanent: its access token stops working at once (401).',
  })
  async delete(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.commands.execute(new DeleteAgentCommand(id, actor));
  }

  @Patch(':agentId/policy')
  @ApiResource('Update an agent’s policy', ok('The agent', 'Agent'), {
    description:
      `Partial and effective immediately. Omitted fields are kept; permissions, ` +
      `accountRestrictions and approvalThresholds replace (null removes); spendingLimits merges ` +
      `field by field (null removes the daily or monthly limit; a new currency recasts the limits ` +
      `not given). ${POLICY_TEXT}`,
  })
  updatePolicy(
    @IdParam('Agent', 'agentId') id: string,
    @Body() body: AgentPolicyUpdateDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new UpdateAgentPolicyCommand(id, body as AgentPolicyUpdate, actor));
  }

  @Post(':agentId/device-codes')
  @Idempotent()
  @SecretOnce('code')
  @ApiResource('Issue a new device code', created('The device code', 'AgentDeviceCode'), {
    description:
      'Earlier unredeemed codes stop working. 409 while the agent is connected. The code is shown once: a replay ' +
      'with the same Idempotency-Key answers without it.',
    errors: [409],
  })
  issueDeviceCode(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor) {
    return this.commands.execute(new IssueDeviceCodeCommand(id, actor));
  }

  @IdempotentAction(':agentId/actions/:actionId/approve')
  @ApiResource('Approve an agent action', ok('The action', 'AgentAction'), {
    description:
      'Executes against the latest policy, usage and balances: APPROVED with its transaction, or ' +
      'FAILED (quote expired, funds short, limits now exceeded, agent paused). 409 unless PENDING_APPROVAL.',
    errors: [409],
  })
  approve(
    @IdParam('Agent', 'agentId') agentId: string,
    @IdParam('AgentAction', 'actionId') actionId: string,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.approve(agentId, actionId, actor);
  }

  @IdempotentAction(':agentId/actions/:actionId/reject')
  @ApiResource('Reject an agent action', ok('The action', 'AgentAction'), {
    description: 'REJECTED; nothing is executed. `reason` is stored as rejectionReason. 409 unless PENDING_APPROVAL.',
    errors: [409],
  })
  reject(
    @IdParam('Agent', 'agentId') agentId: string,
    @IdParam('AgentAction', 'actionId') actionId: string,
    @Body() body: RejectAgentActionDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.reject(agentId, actionId, body?.reason, actor);
  }
}
