import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../http/auth.js';
import { BASE_PATH } from '../http/base-path.js';
import { ApiDoc } from './api-doc.js';
import { docsPage } from './docs-page.js';
import { buildOpenApiDocument } from './openapi.js';

/** Injection token for the list of controllers the OpenAPI document describes. */
export const DOCUMENTED_CONTROLLERS = Symbol('DOCUMENTED_CONTROLLERS');

/** The OpenAPI document and a readable page generated from it. Public: no credentials needed. */
@Controller()
@Public()
export class DocsController {
  private document?: Record<string, unknown>;

  constructor(
    @Inject(DOCUMENTED_CONTROLLERS) private readonly controllers: (abstract new (...args: never[]) => unknown)[],
  ) {}

  @Get('openapi.json')
  @ApiDoc({
    summary: 'This OpenAPI document',
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
  })
  openapi() {
    this.document ??= buildOpenApiDocument(this.controllers, BASE_PATH);
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
    return docsPage();
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
