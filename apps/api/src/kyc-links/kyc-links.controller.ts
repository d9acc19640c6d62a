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
import type { ReceivedFile } from '#application/documents/document-commands.js';
import type { Actor } from '#application/tokens.js';
import { APP_CONFIG } from '#application/tokens.js';
import { KycLinks } from '#application/kyc-links/kyc-links.js';
import type { AppConfig } from '#config/config.js';
import { sendAsset, type HttpRequest, type HttpResponse } from '../http/platform.js';
import { notFound } from '#domain/errors.js';
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor, Public } from '../http/auth.js';
import { BASE_PATH } from '../http/base-path.js';
import { idParam } from '../http/id-pipe.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import { DocumentDetailsDto } from '../documents/document.dto.js';
import { DocumentUploadInterceptor, UploadedDocumentFile } from '../documents/document-upload.interceptor.js';
import { CreateKycLinkDto, KycSubmissionDto } from './kyc-link.dto.js';
import { kycAsset, kycPage } from './kyc-page.js';

/**
 * Hosted KYC links. The platform asks for a link for one of its customers; the customer opens it on the
 * service's page (public: the link's secret is the credential), which shows only which fields the verification
 * lacks and submits them. The token never appears in logs of this service's own requests as a query parameter:
 * it is a path segment of public routes only.
 */
@Controller()
export class KycLinksController {
  constructor(
    private readonly links: KycLinks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('customers/:customerId/kyc-link')
  @Idempotent()
  @ApiDoc({
    summary: 'Generate a hosted KYC link for a customer',
    tag: 'Verifications',
    description:
      'A single-use link to the service’s own verification page, valid for 24 hours on the platform’s clock. ' +
      'Each call issues a new link; earlier ones stay valid until used or expired. The customer’s kycStatus does ' +
      'not change until the page is submitted; in the sandbox the outcome then follows the last-name or ' +
      'registration-number suffix rules at once.',
    responses: { 201: { description: 'The link', schema: 'KycLink' } },
    errors: [404],
  })
  async create(
    @Param('customerId', idParam('Customer', 'customerId')) customerId: string,
    @Body() body: CreateKycLinkDto,
    @CurrentActor() actor: Actor,
    @Req() req: HttpRequest,
  ) {
    const { token, expiresAt, provider } = await this.links.issue(customerId, body.redirectUri, actor);
    const origin = this.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
    return { kycUrl: `${origin}/${BASE_PATH}/kyc/${token}`, expiresAt, provider };
  }

  @Get('kyc/:token')
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiDoc({
    summary: 'The hosted verification page of a KYC link (HTML)',
    tag: 'Verifications',
    auth: 'none',
    responses: { 200: { description: 'HTML page' } },
  })
  page() {
    return kycPage(BASE_PATH);
  }

  @Get('kyc/:token/state')
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiDoc({
    summary: 'What the page of a KYC link shows: the link’s status and the fields the verification lacks',
    tag: 'Verifications',
    auth: 'none',
    responses: { 200: { description: 'The link’s state', schema: 'KycLinkState' } },
    errors: [404],
  })
  state(@Param('token') token: string) {
    return this.links.view(token);
  }

  @Post('kyc/:token')
  @Public()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Submit the page of a KYC link: records the fields and submits the customer for verification',
    tag: 'Verifications',
    auth: 'none',
    responses: { 200: { description: 'The verification outcome', schema: 'KycLinkResult' } },
    errors: [400, 404, 409],
  })
  submit(@Param('token') token: string, @Body() body: KycSubmissionDto) {
    return this.links.submit(token, body);
  }

  @Post('kyc/:token/documents')
  @Public()
  @UseInterceptors(DocumentUploadInterceptor)
  @ApiDoc({
    summary: 'Add a document on the page of a KYC link (an identity or proof-of-address document)',
    tag: 'Verifications',
    auth: 'none',
    description:
      'multipart/form-data as `POST /documents` takes it, without documentHolder: the document belongs to the ' +
      'link’s customer. Only while the link is active (409 KYC_LINK_USED or KYC_LINK_EXPIRED otherwise).',
    responses: { 201: { description: 'The document added', schema: 'KycLinkDocument' } },
    errors: [404, 409, 413, 415],
    multipart: { fileField: 'file', description: 'The document file: PDF, JPEG or PNG.' },
  })
  addDocument(
    @Param('token') token: string,
    @Body() body: DocumentDetailsDto,
    @UploadedDocumentFile() file: ReceivedFile,
  ) {
    return this.links.addDocument(token, body, file);
  }

  @Get('kyc/assets/:name')
  @Public()
  @ApiDoc({
    summary: 'A static file of the hosted verification page',
    tag: 'Verifications',
    auth: 'none',
    responses: { 200: { description: 'The file' } },
    errors: [404],
  })
  asset(@Param('name') name: string, @Res() res: HttpResponse) {
    const asset = kycAsset(name);
    if (!asset) throw notFound('KYC_PAGE_FILE', name);
    sendAsset(res, asset, 'no-cache');
  }
}
