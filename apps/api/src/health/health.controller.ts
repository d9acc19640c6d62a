import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '#config/config.js';
import { APP_CONFIG, EVENT_STORE, JOB_QUEUE, READ_MODELS } from '#application/tokens.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { checkReadiness } from '../../../host/src/observability/readiness.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { schemaRef } from '../docs/resource-schemas.js';
import { HEALTH_TEXT } from '../docs/descriptions/health.js';
import { Public } from '../http/auth.js';
import type { HttpResponse } from '../http/platform.js';

/** Probes in the conventions of Kubernetes: liveness (the process answers) and readiness (it can serve). */
@ApiTags('Meta')
@Controller('health')
@Public()
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly eventStore: Infrastructure['eventStore'],
    @Inject(READ_MODELS) private readonly readModels: Infrastructure['readModels'],
    @Inject(JOB_QUEUE) private readonly jobs: Infrastructure['jobs'],
  ) {}

  @Get('live')
  @ApiDoc({ summary: 'Liveness probe', description: HEALTH_TEXT.live, auth: 'none', responses: ok('Alive', 'Health') })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiDoc({
    summary: 'Readiness probe',
    description: HEALTH_TEXT.ready,
    auth: 'none',
    responses: ok('Ready: every check is up', 'Readiness'),
  })
  @ApiResponse({ status: 503, description: 'Not ready: a check is down', schema: schemaRef('Readiness') })
  async ready(@Res({ passthrough: true }) res: HttpResponse) {
    const { maxProjectionLag, readyTimeoutMs } = this.config.observability;
    const { ready, checks } = await checkReadiness(
      { eventStore: this.eventStore, readModels: this.readModels, jobs: this.jobs },
      { maxProjectionLag, timeoutMs: readyTimeoutMs },
    );
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'error', details: checks };
  }
}
