import { Module } from '@nestjs/common';
import { AgentAuthenticator } from './agent-access.js';
import { AgentActions } from './agent-actions.js';
import { AgentPolicyBacktest } from './agent-backtest.js';
import {
  CreateAgentHandler,
  DeleteAgentHandler,
  IssueDeviceCodeHandler,
  RedeemDeviceCodeHandler,
  UpdateAgentHandler,
  UpdateAgentPolicyHandler,
} from './agent-commands.js';
import { AgentQueries } from './agent-queries.js';
import { PaymentsModule } from '../payments/payments.module.js';

const handlers = [
  CreateAgentHandler,
  UpdateAgentHandler,
  UpdateAgentPolicyHandler,
  DeleteAgentHandler,
  IssueDeviceCodeHandler,
  RedeemDeviceCodeHandler,
];
const services = [AgentAuthenticator, AgentActions, AgentQueries, AgentPolicyBacktest];

/**
 * The agents area: platform-side commands, agent authentication, agent actions (policy-checked
 * spends through the existing transfer and quote machinery) and queries. The payment process comes from
 * PaymentsModule; the runner, clocks and stores from the global ApplicationModule.
 */
@Module({ imports: [PaymentsModule], providers: [...handlers, ...services], exports: services })
export class AgentsModule {}
