import { Controller, Get, Header, Param, Res, type INestApplication } from '@nestjs/common';
import { notFound } from '#domain/errors.js';
import { Public } from '../http/auth.js';
import { BASE_PATH } from '../http/base-path.js';
import { sendAsset, type HttpResponse } from '../http/platform.js';
import { ApiDoc } from './api-doc.js';
import { docsAsset, guidePage, referencePage } from './docs-site.js';
import { buildOpenApiDocument } from './openapi.js';

/** The OpenAPI document and a readable page generated from it. Public: no credentials needed. */
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
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
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
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'HTML page' } },
  })
  docs() {
    return referencePage(BASE_PATH);
  }

  @Get('docs/guides/:name')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiDoc({
    summary: 'A guide (getting started, wallet sessions, signed retry, webhooks, sandbox, agents)',
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'HTML page' } },
    errors: [404],
  })
  guide(@Param('name') name: string) {
    const page = guidePage(BASE_PATH, name);
    if (!page) throw notFound('GUIDE', name);
    return page;
  }

  @Get('docs/assets/:name')
  @ApiDoc({
    summary: 'A static file of the docs pages (Swagger UI from the installed package, styles, scripts)',
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'The file' } },
    errors: [404],
  })
  asset(@Param('name') name: string, @Res() res: HttpResponse) {
    const asset = docsAsset(name);
    if (!asset) throw notFound('DOCS_FILE', name);
    sendAsset(res, asset, 'public, max-age=3600');
  }

  @Get('health')
  @ApiDoc({
    summary: 'Liveness',
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'Service is up', schema: 'Health' } },
  })
  health() {
    return { status: 'ok' };
  }
}
