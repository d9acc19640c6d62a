import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { ReceivedFile } from '#application/documents/document-commands.js';
import { type Actor, APP_CONFIG } from '#application/tokens.js';
import { KycLinks } from '#application/kyc-links/kyc-links.js';
import type { AppConfig } from '#config/config.js';
import { sendAsset, type HttpRequest, type HttpResponse } from '../http/platform.js';
import { notFound } from '#domain/errors.js';
import { ApiDoc, ApiResource, created, ok } from '../docs/api-doc.js';
import { CurrentActor, Public } from '../http/auth.js';
import { BASE_PATH } from '../http/base-path.js';
import { IdParam } from '../http/id-pipe.js';
import { Idempotent } from '../http/retries.js';
import { DocumentDetailsDto } from '../documents/document.dto.js';
import { DocumentUploadInterceptor, UploadedDocumentFile } from '../documents/document-upload.interceptor.js';
import { CreateKycLinkDto, KycSubmissionDto } from './kyc-link.dto.js';
import { kycAsset, kycPage } from './kyc-page.js';
import { KYC_LINKS_TEXT } from '../docs/descriptions/kyc-links.js';

/**
 * Hosted KYC links. The platform asks for a link for one of its customers; the customer opens it on the
 * service's page (public: the link's secret is the credential), which shows only which fields the verification
 * lacks and submits them. The token never appears in logs of this service's own requests as a query parameter:
 * it is a path segment of public routes only.
 */
@ApiTags('Verifications')
@Controller()
export class KycLinksController {
  constructor(
    private readonly links: KycLinks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('customers/:customerId/kyc-link')
  @Idempotent()
  @ApiResource('Generate a hosted KYC link for a customer', created('The link', 'KycLink'), {
    description: KYC_LINKS_TEXT.create,
    optionalBody: true,
  })
  async create(
    @IdParam('Customer', 'customerId') customerId: string,
    @Body() body: CreateKycLinkDto,
    @CurrentActor() actor: Actor,
    @Req() req: HttpRequest,
  ) {
    const { token, expiresAt, provider } = await this.links.issue(customerId, body?.redirectUri, actor);
    const origin = this.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
    return { kycUrl: `${origin}/${BASE_PATH}/kyc/${token}`, expiresAt, provider, token };
  }

  @Get('kyc/:token')
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiDoc({
    summary: 'The hosted verification page of a KYC link (HTML)',
    auth: 'none',
    responses: ok('HTML page'),
  })
  page() {
    return kycPage(BASE_PATH);
  }

  @Get('kyc/:token/state')
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiResource(
    'What the page of a KYC link shows: the link’s status and the fields the verification lacks',
    ok('The link’s state', 'KycLinkState'),
    { auth: 'none' },
  )
  state(@Param('token') token: string) {
    return this.links.view(token);
  }

  @Post('kyc/:token')
  @Public()
  @HttpCode(200)
  @ApiResource(
    'Submit the page of a KYC link: records the fields and submits the customer for verification',
    ok('The verification outcome', 'KycLinkResult'),
    { auth: 'none', errors: [400, 409] },
  )
  submit(@Param('token') token: string, @Body() body: KycSubmissionDto) {
    return this.links.submit(token, body);
  }

  @Post('kyc/:token/documents')
  @Public()
  @UseInterceptors(DocumentUploadInterceptor)
  @ApiResource(
    'Add a document on the page of a KYC link (an identity or proof-of-address document)',
    created('The document added', 'KycLinkDocument'),
    {
      auth: 'none',
      description: KYC_LINKS_TEXT.addDocument,
      errors: [409, 413, 415],
      multipart: { fileField: 'file', description: KYC_LINKS_TEXT.addDocumentFile },
    },
  )
  addDocument(
    @Param('token') token: string,
    @Body() body: DocumentDetailsDto,
    @UploadedDocumentFile() file: ReceivedFile,
  ) {
    return this.links.addDocument(token, body, file);
  }

  @Get('kyc/assets/:name')
  @Public()
  @ApiResource('A static file of the hosted verification page', ok('The file'), { auth: 'none' })
  asset(@Param('name') name: string, @Res() res: HttpResponse) {
    const asset = kycAsset(name);
    if (!asset) throw notFound('KYC_PAGE_FILE', name);
    sendAsset(res, asset, 'no-cache');
  }
}
