import { Controller, Get, Header, Param, Res, type INestApplication } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { notFound } from '#domain/errors.js';
import { Public } from '../http/auth.js';
import { BASE_PATH } from '../http/base-path.js';
import { sendAsset, type HttpResponse } from '../http/platform.js';
import { ApiDoc, ApiResource, ok } from './api-doc.js';
import { GetOne } from '../http/routes.js';
import { docsAsset, guidePage, referencePage } from './docs-site.js';
import { buildOpenApiDocument } from './openapi.js';

/** The OpenAPI document and a readable page generated from it. Public: no credentials needed. */
@ApiTags('Meta')
@Controller()
@Public()
export class DocsController {
  private document?: Promise<Record<string, unknown>>;
  private app?: INestApplication;

  /** The application the document describes (set by createApp in service.ts: swagger scans the whole app). */
  describe(app: INestApplication): void {
    this.app = app;
  }

  @Get('openapi.json')
  @ApiDoc({
    summary: 'This OpenAPI document',
    auth: 'none',
    responses: ok('OpenAPI 3.1 document'),
  })
  openapi() {
    if (!this.app) throw new Error('DocsController.describe(app) was not called');
    this.document ??= buildOpenApiDocument(this.app, BASE_PATH);
    return this.document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiDoc({
    summary: 'Human-readable API reference',
    auth: 'none',
    responses: ok('HTML page'),
  })
  docs() {
    // The page asks for the document next: building it (once per process) starts now rather than on that request,
    // which answers any failure to build it.
    this.openapi().catch(() => undefined);
    return referencePage(BASE_PATH);
  }

  @Get('docs/guides/:name')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiResource('A guide (getting started, wallet sessions, signed retry, webhooks, sandbox, agents)', ok('HTML page'), {
    auth: 'none',
  })
  guide(@Param('name') name: string) {
    const page = guidePage(BASE_PATH, name);
    if (!page) throw notFound('GUIDE', name);
    return page;
  }

  @GetOne(
    'docs/assets/:name',
    'A static file of the docs pages (Swagger UI from the installed package, styles, scripts)',
    ok('The file'),
    { auth: 'none' },
  )
  asset(@Param('name') name: string, @Res() res: HttpResponse) {
    const asset = docsAsset(name);
    if (!asset) throw notFound('DOCS_FILE', name);
    sendAsset(res, asset, 'public, max-age=3600');
  }

  @Get('health')
  @ApiDoc({
    summary: 'Liveness',
    auth: 'none',
    responses: ok('Service is up', 'Health'),
  })
  health() {
    return { status: 'ok' };
  }
}
