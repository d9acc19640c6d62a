import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../http/auth.js';
import { buildOpenApiDocument } from './openapi.js';
import { docsPage } from './docs-page.js';

/** The OpenAPI document and a readable page generated from it. Public: no credentials needed. */
@Controller()
@Public()
export class DocsController {
  private document?: Record<string, unknown>;

  @Get('openapi.json')
  openapi() {
    this.document ??= buildOpenApiDocument();
    return this.document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  docs() {
    return docsPage();
  }

  @Get('health')
  health() {
    return { status: 'ok' };
  }
}
