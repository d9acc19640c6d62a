import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '../../config/src/config.js';
import type { Clock } from '../../domain/src/clock.js';
import type { IdGenerator } from '../../domain/src/ids.js';
import { CommandRunner } from './command-runner.js';
import { CreateCustomerHandler, DeleteCustomerHandler, OpenInternalAccountHandler, UpdateCustomerHandler } from './customers/customer-commands.js';
import type { Infrastructure } from './infrastructure.js';
import { FundInternalAccountHandler } from './ledger/fund-commands.js';
import { CreateApiTokenHandler, CreatePlatformHandler, RevokeApiTokenHandler } from './platforms/platform-commands.js';
import { Queries } from './queries/queries.js';
import { APP_CONFIG, CLOCK, EVENT_STORE, IDS, JOB_QUEUE, PROJECTIONS, READ_MODELS } from './tokens.js';

const handlers = [
  CreatePlatformHandler,
  CreateApiTokenHandler,
  RevokeApiTokenHandler,
  CreateCustomerHandler,
  UpdateCustomerHandler,
  DeleteCustomerHandler,
  OpenInternalAccountHandler,
  FundInternalAccountHandler,
];

/** Command handlers, queries and the ports they use, wired to the given infrastructure. */
@Module({})
export class ApplicationModule {
  static register(deps: { config: AppConfig; infra: Infrastructure; clock: Clock; ids: IdGenerator }): DynamicModule {
    const { infra } = deps;
    return {
      module: ApplicationModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: CLOCK, useValue: deps.clock },
        { provide: IDS, useValue: deps.ids },
        { provide: EVENT_STORE, useValue: infra.eventStore },
        { provide: READ_MODELS, useValue: infra.readModels },
        { provide: JOB_QUEUE, useValue: infra.jobs },
        { provide: PROJECTIONS, useValue: infra.projections },
        {
          provide: CommandRunner,
          useFactory: () => new CommandRunner(infra.eventStore, infra.projections, { readYourWritesTimeoutMs: deps.config.readYourWritesTimeoutMs }),
        },
        Queries,
        ...handlers,
      ],
      exports: [APP_CONFIG, CLOCK, IDS, EVENT_STORE, READ_MODELS, JOB_QUEUE, PROJECTIONS, CommandRunner, Queries, CqrsModule],
    };
  }
}
