import { SetMetadata } from '@nestjs/common';

/** A response as the OpenAPI document shows it: a component schema, a list of one, or none. */
export interface DocResponse {
  description: string;
  /** Component schema name; `list:` prefix for a paginated `{data, hasMore, nextCursor, totalCount}` wrapper. */
  schema?: string;
  /** A file in one of these media types instead of JSON. */
  binary?: readonly string[];
}

/** What a route tells the OpenAPI document beyond what Nest and class-validator already know. */
export interface ApiDocMeta {
  summary: string;
  description?: string;
  tag?: string;
  /** Success responses by status; error responses are added from `errors`. */
  responses: Record<number, DocResponse>;
  /** Error statuses this route can answer besides 400/401/500 (which every authenticated route can). */
  errors?: number[];
  /** `basic` (default), `bearer` (agent token) or `none`. */
  auth?: 'basic' | 'bearer' | 'none';
  /** The JSON body may be left out (an empty body means every field absent). */
  optionalBody?: boolean;
  /** Request headers the route reads, besides those `signedRetry` and `@Idempotent()` declare. */
  headers?: { name: string; description: string; required?: boolean }[];
  /** Two-step signed retry: documents the 202 challenge and the signature headers. */
  signedRetry?: boolean;
  /** A `multipart/form-data` body carrying one file in `field` (the route reads it itself). */
  upload?: { field: string; description: string };
  /**
   * The body is multipart/form-data: the `@Body()` DTO's fields as text parts plus one file part,
   * required, named `fileField`.
   */
  multipart?: { fileField: string; description: string };
}

export const API_DOC = 'apiDoc';

/**
 * Set by `@Idempotent()` (http/idempotency.interceptor.ts), which also attaches the interceptor: the
 * OpenAPI document declares the `Idempotency-Key` header exactly where the service honours it.
 */
export const IDEMPOTENT = 'idempotent';

export const ApiDoc = (meta: ApiDocMeta) => SetMetadata(API_DOC, meta);
