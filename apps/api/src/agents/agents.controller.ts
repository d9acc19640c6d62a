import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AgentActions } from '#application/agents/agent-actions.js';
import { AgentPolicyBacktest } from '#application/agents/agent-backtest.js';
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
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor, Public } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { IdParam } from '../http/id-pipe.js';
import { DEVICE_CODE_POLICY, RateLimit, RateLimitGuard } from '../http/rate-limit.js';
import { Idempotent, IdempotentAction, SecretOnce } from '../http/retries.js';
import {
  AgentPolicyBacktestDto,
  AgentPolicyUpdateDto,
  CreateAgentDto,
  ListAgentsQuery,
  ListApprovalsQuery,
  RejectAgentActionDto,
  UpdateAgentDto,
} from './agent.dto.js';
import { AGENTS_TEXT } from '../docs/descriptions/agents.js';

/** The platform's decision on an agent action pending its approval: answered with the action. */
const ActionDecision = (decision: 'approve' | 'reject', summary: string, description: string) =>
  applyDecorators(
    IdempotentAction(`:agentId/actions/:actionId/${decision}`),
    ApiResource(summary, ok('The action', 'AgentAction'), {
      description,
      errors: [409],
      ...(decision === 'reject' ? { optionalBody: true } : {}),
    }),
  );

/** Agents as the platform manages them (Basic auth); device-code redemption needs no auth. */
@ApiTags('Agents')
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentQueries,
    private readonly actions: AgentActions,
    private readonly runner: CommandRunner,
    private readonly backtests: AgentPolicyBacktest,
  ) {}

  @PostCreate('Create an agent', 'The agent and its device code', 'AgentCreateResponse', {
    description: AGENTS_TEXT.create,
    errors: [404],
  })
  @SecretOnce('deviceCode.code')
  create(@Body() body: CreateAgentDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new CreateAgentCommand({ ...body, policy: body.policy as AgentPolicy }, actor));
  }

  @GetPage('', 'List agents', 'agents', 'Agent', { description: AGENTS_TEXT.list })
  list(@Query() q: ListAgentsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listAgents(actor.platformId, q);
  }

  @GetPage('approvals', 'List actions pending approval', 'agent actions', 'AgentAction', {
    description: AGENTS_TEXT.approvals,
  })
  approvals(@Query() q: ListApprovalsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listApprovals(actor.platformId, q);
  }

  @GetOne(
    'device-codes/:code/status',
    'Device code status',
    ok('The code and whether it was redeemed', 'AgentDeviceCodeStatus'),
    { description: AGENTS_TEXT.deviceCodeStatus, errors: [429] },
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
    description: AGENTS_TEXT.redeem,
    auth: 'none',
    responses: {
      200: { description: AGENTS_TEXT.redeemResponse200, schema: 'AgentDeviceCodeRedeemResponse' },
    },
    errors: [400, 404, 429],
  })
  @RateLimit(DEVICE_CODE_POLICY)
  @UseGuards(RateLimitGuard)
  redeem(@Param('code') code: string) {
    return this.commands.execute(new RedeemDeviceCodeCommand(code, randomUUID()));
  }

  @GetOne(':agentId', 'Get an agent', ok('The agent', 'Agent'), { description: AGENTS_TEXT.get })
  get(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.agent(actor.platformId, id);
  }

  @Patch(':agentId')
  @ApiResource('Rename or pause an agent', ok('The agent', 'Agent'), { description: AGENTS_TEXT.update })
  update(@IdParam('Agent', 'agentId') id: string, @Body() body: UpdateAgentDto, @CurrentActor() actor: Actor) {
    if (body.name === undefined && body.isPaused === undefined)
      throw invalidInput([{ field: 'name', constraint: 'atLeastOne', message: 'give name and/or isPaused' }]);
    return this.commands.execute(new UpdateAgentCommand(id, body, actor));
  }

  @Delete(':agentId')
  @HttpCode(204)
  @ApiResource('Delete an agent', noContent('Deleted'), { description: AGENTS_TEXT.delete })
  async delete(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.commands.execute(new DeleteAgentCommand(id, actor));
  }

  @Patch(':agentId/policy')
  @ApiResource('Update an agent’s policy', ok('The agent', 'Agent'), { description: AGENTS_TEXT.updatePolicy })
  updatePolicy(
    @IdParam('Agent', 'agentId') id: string,
    @Body() body: AgentPolicyUpdateDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new UpdateAgentPolicyCommand(id, body as AgentPolicyUpdate, actor));
  }

  @Post(':agentId/policy/backtest')
  @HttpCode(200)
  @ApiResource('Backtest a draft policy', ok('What the draft would have changed', 'AgentPolicyBacktest'), {
    description: AGENTS_TEXT.backtestPolicy,
  })
  backtestPolicy(
    @IdParam('Agent', 'agentId') id: string,
    @Body() body: AgentPolicyBacktestDto,
    @CurrentActor() actor: Actor,
  ) {
    const { policy, from, to } = body;
    return this.backtests.backtest(actor.platformId, id, { policy: policy as AgentPolicyUpdate, from, to });
  }

  @Post(':agentId/device-codes')
  @Idempotent()
  @SecretOnce('code')
  @ApiResource('Issue a new device code', created('The device code', 'AgentDeviceCode'), {
    description: AGENTS_TEXT.issueDeviceCode,
    errors: [409],
  })
  issueDeviceCode(@IdParam('Agent', 'agentId') id: string, @CurrentActor() actor: Actor) {
    return this.commands.execute(new IssueDeviceCodeCommand(id, actor));
  }

  @ActionDecision('approve', 'Approve an agent action', AGENTS_TEXT.approve)
  approve(
    @IdParam('Agent', 'agentId') agentId: string,
    @IdParam('AgentAction', 'actionId') actionId: string,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.approve(agentId, actionId, actor);
  }

  @ActionDecision('reject', 'Reject an agent action', AGENTS_TEXT.reject)
  reject(
    @IdParam('Agent', 'agentId') agentId: string,
    @IdParam('AgentAction', 'actionId') actionId: string,
    @Body() body: RejectAgentActionDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.actions.reject(agentId, actionId, body?.reason, actor);
  }
}
