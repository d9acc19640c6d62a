import { BASE_PATH } from './base-path.js';
import { ApiError, sendError } from './errors.js';
import { pathOf, type HttpRequest, type HttpResponse } from './platform.js';

const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json$/;

function hasBody(req: HttpRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A route that takes multipart/form-data instead, by method and path. */
export interface MultipartRoute {
  method: string;
  path: RegExp;
}

/** Every route whose body is a multipart/form-data upload, read by `receiveMultipart` (multipart-form.ts). */
export const UPLOAD_ROUTES: MultipartRoute[] = [
  // Documents (DocumentUploadInterceptor).
  { method: 'POST', path: new RegExp(`^/${BASE_PATH}/documents/?$`) },
  { method: 'PUT', path: new RegExp(`^/${BASE_PATH}/documents/[^/]+/?$`) },
  // A document the customer adds on a hosted KYC link's page.
  { method: 'POST', path: new RegExp(`^/${BASE_PATH}/kyc/[^/]+/documents/?$`) },
  // The bulk customer import's CSV file.
  { method: 'POST', path: new RegExp(`^/${BASE_PATH}/customers/bulk/csv$`) },
];

/**
 * Bodies are JSON only: a POST, PUT or PATCH with a body of another (or no) content type is
 * refused with 415 before any parser reads it, rather than arriving as an empty body. The upload
 * routes also take multipart/form-data, which their reader checks. Express middleware, and on Fastify an
 * `onRequest` hook (the same arguments).
 */
export function requireJsonBody(multipartRoutes: MultipartRoute[] = UPLOAD_ROUTES) {
  return (req: HttpRequest, res: HttpResponse, next: () => void): void => {
    if (!['POST', 'PUT', 'PATCH'].includes(req.method) || !hasBody(req)) return next();
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (JSON_MEDIA_TYPE.test(mediaType)) return next();
    if (
      mediaType === 'multipart/form-data' &&
      multipartRoutes.some((r) => r.method === req.method && r.path.test(pathOf(req)))
    )
      return next();
    const message = 'the body must be JSON: send it with Content-Type: application/json';
    sendError(res, new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message }), req);
  };
}
