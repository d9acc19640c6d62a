import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AgentAuthenticator, type AgentPrincipal } from '#application/agents/agent-access.js';
import { AgentActions } from '#application/agents/agent-actions.js';
import { AgentQueries } from '#application/agents/agent-queries.js';
import {
  CreateExternalAccountCommand,
  DeleteExternalAccountCommand,
} from '#application/external-accounts/external-account-commands.js';
import { ExternalAccountQueries } from '#application/external-accounts/external-account-queries.js';
import { Queries } from '#application/queries/queries.js';
import { quoteRequestOf, toQuoteResource } from '#domain/payments/quotes/quote.js';
import { MoneyQueries } from '#application/payments/transactions/money-queries.js';
import { authorizeOperation, forbidden } from '#domain/agents/agent-policy.js';
import type { AgentPermission } from '#domain/agents/agent-types.js';
import { notFound } from '#domain/errors.js';
import { ApiDoc, ApiResource, created, noContent, ok, type ApiDocMore } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { AgentRoute } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Idempotent, IdempotentAction } from '../http/retries.js';
import { AgentAuthGuard, CurrentAgent } from './agent-auth.guard.js';
import {
  AgentCreateExternalAccountDto,
  AgentCreateQuoteDto,
  AgentListActionsQuery,
  AgentListExternalAccountsQuery,
  AgentListInternalAccountsQuery,
  AgentListTransactionsQuery,
  AgentTransferInDto,
  AgentTransferOutDto,
} from './agent-me.dto.js';
import { AGENT_ME_TEXT } from '../docs/descriptions/agents.js';

/** Routes open to an agent whose policy grants the permission they check (403 otherwise). */
const PERMITTED: ApiDocMore = { auth: 'bearer', errors: [403] };

/** A transfer the agent asks for: idempotent, evaluated by the policy, answered with the agent action. */
const Transfer = (path: string, summary: string, description: string) =>
  applyDecorators(
    Post(path),
    Idempotent(),
    ApiDoc({
      summary,
      description,
      auth: 'bearer',
      responses: created('The agent action', 'AgentAction'),
      errors: [403, 404, 409, 422],
    }),
  );

/**
 * The agent's own API (`Authorization: Bearer <accessToken>`): bound to the agent's customer
 * (another customer's resources answer 404; every account a request names goes through
 * `AgentActions.ownAccounts`) and limited by its policy (403).
 */
@ApiTags('Agent (self)')
@Controller('agents/me')
@AgentRoute()
@UseGuards(AgentAuthGuard)
export class AgentMeController {
  constructor(
    private readonly commands: CommandBus,
    private readonly authenticator: AgentAuthenticator,
    private readonly agents: AgentQueries,
    private readonly actions: AgentActions,
    private readonly queries: Queries,
    private readonly money: MoneyQueries,
    private readonly externalAccounts: ExternalAccountQueries,
  ) {}

  /** Reads check only the permission (a paused agent may still look). */
  private async requirePermission(agent: AgentPrincipal, permission: AgentPermission): Promise<void> {
    const state = await this.authenticator.state(agent);
    if (!state.agent!.policy.permissions.includes(permission))
      throw forbidden(`the agent's policy does not grant ${permission}`);
  }

  @Get()
  @ApiDoc({
    summary: 'The agent itself',
    description: AGENT_ME_TEXT.me,
    auth: 'bearer',
    responses: ok('The agent', 'Agent'),
  })
  me(@CurrentAgent() agent: AgentPrincipal) {
    return this.agents.agent(agent.platformId, agent.agentId);
  }

  @GetPage('actions', 'The agent’s actions', 'actions', 'AgentAction', {
    description: AGENT_ME_TEXT.listActions,
    auth: 'bearer',
  })
  listActions(@Query() q: AgentListActionsQuery, @CurrentAgent() agent: AgentPrincipal) {
    const { limit, cursor, status } = q;
    return this.agents.listActions(agent.platformId, { agentId: agent.agentId, status, limit, cursor });
  }

  @GetOne('actions/:actionId', 'One of the agent’s actions', ok('The action', 'AgentAction'), { auth: 'bearer' })
  action(@IdParam('AgentAction', 'actionId') id: string, @CurrentAgent() agent: AgentPrincipal) {
    return this.agents.action(agent.platformId, agent.agentId, id);
  }

  @GetPage('internal-accounts', 'The customer’s internal accounts', 'accounts', 'InternalAccount', {
    description: AGENT_ME_TEXT.internalAccounts,
    ...PERMITTED,
  })
  async internalAccounts(@Query() q: AgentListInternalAccountsQuery, @CurrentAgent() agent: AgentPrincipal) {
    await this.requirePermission(agent, 'VIEW_TRANSACTIONS');
    const scope = { owner: 'customer', customerId: agent.customerId } as const;
    return this.queries.listInternalAccounts(agent.platformId, { ...q, ...scope });
  }

  @GetPage('transactions', 'The customer’s transactions', 'transactions', 'Transaction', {
    description: AGENT_ME_TEXT.transactions,
    ...PERMITTED,
  })
  async transactions(@Query() q: AgentListTransactionsQuery, @CurrentAgent() agent: AgentPrincipal) {
    await this.requirePermission(agent, 'VIEW_TRANSACTIONS');
    return this.money.listTransactions(agent.platformId, { ...q, customerId: agent.customerId });
  }

  @GetOne('transactions/:transactionId', 'One of the customer’s transactions', ok('The transaction', 'Transaction'), {
    description: AGENT_ME_TEXT.transaction,
    ...PERMITTED,
  })
  async transaction(@IdParam('Transaction', 'transactionId') id: string, @CurrentAgent() agent: AgentPrincipal) {
    await this.requirePermission(agent, 'VIEW_TRANSACTIONS');
    const tx = await this.money.transaction(agent.platformId, id);
    if (tx.customerId !== agent.customerId) throw notFound('TRANSACTION', id);
    return tx;
  }

  @Post('quotes')
  @Idempotent()
  @ApiDoc({
    summary: 'Create a quote',
    description: AGENT_ME_TEXT.createQuote,
    auth: 'bearer',
    responses: created('The quote', 'Quote'),
    errors: [403, 404, 409, 422],
  })
  createQuote(@Body() body: AgentCreateQuoteDto, @CurrentAgent() agent: AgentPrincipal) {
    return this.actions.createQuote(agent, quoteRequestOf(body));
  }

  @GetOne('quotes/:quoteId', 'A quote this agent created', ok('The quote', 'Quote'), {
    description: AGENT_ME_TEXT.quote,
    auth: 'bearer',
  })
  async quote(@IdParam('Quote', 'quoteId') id: string, @CurrentAgent() agent: AgentPrincipal) {
    const { quote, transaction } = await this.actions.ownQuote(agent, id);
    return toQuoteResource(quote, transaction.status);
  }

  @IdempotentAction('quotes/:quoteId/execute')
  @ApiResource('Execute a quote', ok('The agent action', 'AgentAction'), {
    description: AGENT_ME_TEXT.execute,
    auth: 'bearer',
    errors: [403, 409, 422],
  })
  execute(
    @IdParam('Quote', 'quoteId') id: string,
    @Headers('service-wallet-signature') signature: string | undefined,
    @Headers('request-id') requestId: string | undefined,
    @CurrentAgent() agent: AgentPrincipal,
  ) {
    return this.actions.executeQuote(agent, id, {
      signature: signature || undefined,
      requestId: requestId || undefined,
    });
  }

  @Transfer('transfer-in', 'Transfer in', AGENT_ME_TEXT.transferIn)
  transferIn(@Body() body: AgentTransferInDto, @CurrentAgent() agent: AgentPrincipal) {
    return this.actions.transfer(agent, 'IN', body);
  }

  @Transfer('transfer-out', 'Transfer out', AGENT_ME_TEXT.transferOut)
  transferOut(@Body() body: AgentTransferOutDto, @CurrentAgent() agent: AgentPrincipal) {
    return this.actions.transfer(agent, 'OUT', body);
  }

  @GetPage('external-accounts', 'The customer’s external accounts', 'external accounts', 'ExternalAccount', {
    description: AGENT_ME_TEXT.listExternalAccounts,
    ...PERMITTED,
  })
  async listExternalAccounts(@Query() q: AgentListExternalAccountsQuery, @CurrentAgent() agent: AgentPrincipal) {
    await this.requirePermission(agent, 'MANAGE_EXTERNAL_ACCOUNTS');
    return this.externalAccounts.list(agent.platformId, 'customer', {
      customerId: agent.customerId,
      currency: q.currency,
      limit: q.limit,
      cursor: q.cursor,
    });
  }

  @Post('external-accounts')
  @Idempotent()
  @ApiDoc({
    summary: 'Add an external account',
    description: AGENT_ME_TEXT.createExternalAccount,
    auth: 'bearer',
    responses: created('The external account', 'ExternalAccount'),
    errors: [403, 404, 409],
  })
  async createExternalAccount(@Body() body: AgentCreateExternalAccountDto, @CurrentAgent() agent: AgentPrincipal) {
    authorizeOperation(await this.authenticator.state(agent), 'MANAGE_EXTERNAL_ACCOUNTS');
    if (body.customerId !== undefined && body.customerId !== agent.customerId)
      throw notFound('CUSTOMER', body.customerId);
    const id: string = await this.commands.execute(
      new CreateExternalAccountCommand('customer', { ...body, customerId: agent.customerId }, agent.actor),
    );
    return this.externalAccounts.get(agent.platformId, 'customer', id);
  }

  @GetOne(
    'external-accounts/:externalAccountId',
    'One of the customer’s external accounts',
    ok('The external account', 'ExternalAccount'),
    { description: AGENT_ME_TEXT.externalAccount, ...PERMITTED },
  )
  async externalAccount(
    @IdParam('ExternalAccount', 'externalAccountId') id: string,
    @CurrentAgent() agent: AgentPrincipal,
  ) {
    await this.requirePermission(agent, 'MANAGE_EXTERNAL_ACCOUNTS');
    return this.ownExternalAccount(agent, id);
  }

  @Delete('external-accounts/:externalAccountId')
  @HttpCode(204)
  @ApiResource('Delete one of the customer’s external accounts', noContent('Deleted'), {
    description: AGENT_ME_TEXT.deleteExternalAccount,
    ...PERMITTED,
  })
  async deleteExternalAccount(
    @IdParam('ExternalAccount', 'externalAccountId') id: string,
    @CurrentAgent() agent: AgentPrincipal,
  ): Promise<void> {
    authorizeOperation(await this.authenticator.state(agent), 'MANAGE_EXTERNAL_ACCOUNTS');
    await this.ownExternalAccount(agent, id);
    await this.commands.execute(new DeleteExternalAccountCommand('customer', id, agent.actor));
  }

  private async ownExternalAccount(agent: AgentPrincipal, id: string) {
    await this.actions.ownAccounts(agent, [{ accountId: id, field: 'externalAccountId' }]);
    return this.externalAccounts.get(agent.platformId, 'customer', id);
  }
}
