import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
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
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor, Public } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { idParam } from '../http/id-pipe.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import {
  AgentPolicyUpdateDto,
  CreateAgentDto,
  ListAgentsQuery,
  ListApprovalsQuery,
  RejectAgentActionDto,
  UpdateAgentDto,
} from './agent.dto.js';

const POLICY_TEXT =
  'Policy evaluation, at the moment of each action: a paused agent, a missing permission or an ' +
  'account outside allowedAccountIds answer 403 FORBIDDEN; ' +
  'an amount (converted into spendingLimits.currency at the service rate) above the per-transaction ' +
  'limit (an account rule’s takes precedence), or past the daily count, ' +
  'daily amount or monthly amount (executed spends plus spends in flight, UTC day and month of the ' +
  'platform clock) answers 403 VELOCITY_LIMIT_EXCEEDED; ' +
  'APPROVAL_REQUIRED (the account rule’s mode, else the default) or an amount above ' +
  'approvalThresholds makes the action PENDING_APPROVAL.';

/** Agents as the platform manages them (Basic auth); device-code redemption needs no auth. */
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
  @ApiDoc({
    summary: 'Create an agent',
    description:
      `Creates an agent for a customer with a policy and returns its first device code ` +
      `(valid 24 hours on the platform clock). ${POLICY_TEXT}`,
    tag: 'Agents',
    responses: { 201: { description: 'The agent and its device code', schema: 'AgentCreateResponse' } },
    errors: [404],
  })
  create(@Body() body: CreateAgentDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new CreateAgentCommand({ ...body, policy: body.policy as AgentPolicy }, actor));
  }

  @Get()
  @ApiDoc({
    summary: 'List agents',
    description: 'Newest first; date filters are inclusive.',
    tag: 'Agents',
    responses: { 200: { description: 'A page of agents', schema: 'list:Agent' } },
  })
  list(@Query() q: ListAgentsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listAgents(actor.platformId, q);
  }

  @Get('approvals')
  @ApiDoc({
    summary: 'List actions pending approval',
    description:
      'Agent actions in PENDING_APPROVAL, newest first unless sortOrder=asc; dates (createdAt) are inclusive.',
    tag: 'Agents',
    responses: { 200: { description: 'A page of agent actions', schema: 'list:AgentAction' } },
  })
  approvals(@Query() q: ListApprovalsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listApprovals(actor.platformId, q);
  }

  @Get('device-codes/:code/status')
  @ApiDoc({
    summary: 'Device code status',
    description: 'Poll until `redeemed` is true.',
    tag: 'Agents',
    responses: { 200: { description: 'The code and whether it was redeemed', schema: 'AgentDeviceCodeStatus' } },
    errors: [404],
  })
  async deviceCodeStatus(@Param('code') code: string, @CurrentActor() actor: Actor) {
    const { state } = await loadDeviceCode(this.runner, code, actor.platformId);
    return { code, redeemed: state.deviceCode?.code === code ? state.deviceCode.redeemed : false };
  }

  @Post('device-codes/:code/redeem')
  @Public()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Redeem a device code',
    description:
      'No authentication. Returns the agent’s access token once (only its hash is kept; it cannot ' +
      'be retrieved again) and marks the agent connected. 400 when the code was already redeemed, ' +
      'replaced by a newer one or expired; 404 when unknown.',
    tag: 'Agents',
    auth: 'none',
    responses: {
      200: { description: 'The access token and the agent’s policy', schema: 'AgentDeviceCodeRedeemResponse' },
    },
    errors: [400, 404],
  })
  redeem(@Param('code') code: string) {
    return this.commands.execute(new RedeemDeviceCodeCommand(code, randomUUID()));
  }

  @Get(':agentId')
  @ApiDoc({
    summary: 'Get an agent',
    description: 'Usage counters as of the platform clock.',
    tag: 'Agents',
    responses: { 200: { description: 'The agent', schema: 'Agent' } },
    errors: [404],
  })
  get(@Param('agentId', idParam('Agent', 'agentId')) id: string, @CurrentActor() actor: Actor) {
    return this.queries.agent(actor.platformId, id);
  }

  @Patch(':agentId')
  @ApiDoc({
    summary: 'Rename or pause an agent',
    description: 'A paused agent cannot initiate actions (403) until unpaused; its configuration is kept.',
    tag: 'Agents',
    responses: { 200: { description: 'The agent', schema: 'Agent' } },
    errors: [404],
  })
  update(
    @Param('agentId', idParam('Agent', 'agentId')) id: string,
    @Body() body: UpdateAgentDto,
    @CurrentActor() actor: Actor,
  ) {
    if (body.name === undefined && body.isPaused === undefined)
      throw invalidInput([{ field: 'name', constraint: 'atLeastOne', message: 'give name and/or isPaused' }]);
    return this.commands.execute(new UpdateAgentCommand(id, body, actor));
  }

  @Delete(':agentId')
  @HttpCode(204)
  @ApiDoc({
    summary: 'Delete an agent',
    description: 'Permanent: its access token stops working at once (401).',
    tag: 'Agents',
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
  })
  async delete(@Param('agentId', idParam('Agent', 'agentId')) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.commands.execute(new DeleteAgentCommand(id, actor));
  }

  @Patch(':agentId/policy')
  @ApiDoc({
    summary: 'Update an agent’s policy',
    description:
      `Partial and effective immediately. Omitted fields are kept; permissions, ` +
      `accountRestrictions and approvalThresholds replace (null removes); spendingLimits merges ` +
      `field by field (null removes the daily or monthly limit; a new currency recasts the limits ` +
      `not given). ${POLICY_TEXT}`,
    tag: 'Agents',
    responses: { 200: { description: 'The agent', schema: 'Agent' } },
    errors: [404],
  })
  updatePolicy(
    @Param('agentId', idParam('Agent', 'agentId')) id: string,
    @Body() body: AgentPolicyUpdateDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new UpdateAgentPolicyCommand(id, body as AgentPolicyUpdate, actor));
  }

  @Post(':agentId/device-codes')
  @Idempotent()
  @ApiDoc({
    summary: 'Issue a new device code',
    description: 'Earlier unredeemed codes stop working. 409 while the agent is connected.',
    tag: 'Agents',
    responses: { 201: { description: 'The device code', schema: 'AgentDeviceCode' } },
    errors: [404, 409],
  })
  issueDeviceCode(@Param('agentId', idParam('Agent', 'agentId')) id: string, @CurrentActor() actor: Actor) {
    return this.commands.execute(new IssueDeviceCodeCommand(id, actor));
  }

  @Post(':agentId/actions/:actionId/approve')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Approve an agent action',
    description:
      'Executes against the latest policy, usage and balances: APPROVED with its transaction, or ' +
      'FAILED (quote expired, funds short, limits now exceeded, agent paused). 409 unless PENDING_APPROVAL.',
    tag: 'Agents',
    responses: { 200: { description: 'The action', schema: 'AgentAction' } },
    errors: [404, 409],
  })
  approve(
    @Param('agentId', idParam('Agent', 'agentId')) agentId: string,
    @Param('actionId', idParam('AgentAction', 'actionId')) actionId: string,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.approve(agentId, actionId, actor);
  }

  @Post(':agentId/actions/:actionId/reject')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Reject an agent action',
    description: 'REJECTED; nothing is executed. `reason` is stored as rejectionReason. 409 unless PENDING_APPROVAL.',
    tag: 'Agents',
    responses: { 200: { description: 'The action', schema: 'AgentAction' } },
    errors: [404, 409],
  })
  reject(
    @Param('agentId', idParam('Agent', 'agentId')) agentId: string,
    @Param('actionId', idParam('AgentAction', 'actionId')) actionId: string,
    @Body() body: RejectAgentActionDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.reject(agentId, actionId, body?.reason, actor);
  }
}
