import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDoc, ApiResource, ok } from '../docs/api-doc.js';
import { Public } from '../http/auth.js';
import { sendAsset, type HttpResponse } from '../http/platform.js';
import { notFound } from '#domain/errors.js';
import { CONSOLE_ASSETS, readConsoleFile } from './console-assets.js';

/**
 * The operations console: a static page and small ES modules (apps/dashboard/public) that work only
 * through the public API and the audit endpoints with the platform's credentials. The page and its
 * files are public; every piece of data needs the credentials.
 */
@ApiTags('Dashboard')
@Controller('dashboard')
export class ConsoleController {
  @Get()
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiDoc({
    summary: 'Operations console (HTML; holds no data, asks for API credentials)',
    auth: 'none',
    responses: ok('HTML page'),
  })
  page() {
    return readConsoleFile('apps/dashboard/public/index.html');
  }

  @Get('assets/:name')
  @Public()
  @ApiResource('A static file of the operations console (its scripts, styles and Chart.js)', ok('The file'), {
    auth: 'none',
  })
  asset(@Param('name') name: string, @Res() res: HttpResponse) {
    const asset = Object.hasOwn(CONSOLE_ASSETS, name) ? CONSOLE_ASSETS[name] : undefined;
    if (!asset) throw notFound('CONSOLE_FILE', name);
    sendAsset(res, { type: asset.type, body: readConsoleFile(asset.path) }, 'no-cache');
  }
}
