import { applyDecorators, Get, Post } from '@nestjs/common';
import { ApiDoc, ApiList, ApiResource, created, type ApiDocMore, type DocResponse } from '../docs/api-doc.js';
import { Idempotent } from './retries.js';

/** GET `path` answering a page of `schema` items (`ApiList`); `''` is the controller's own path. */
export const GetPage = (path: string, summary: string, items: string, schema: string, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiList(summary, items, schema, more));

/** GET `path` naming one resource (`ApiResource`: 404 when it is unknown or another platform's). */
export const GetOne = (path: string, summary: string, responses: Record<number, DocResponse>, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiResource(summary, responses, more));

/** GET `path` answering `responses` (`ApiDoc`: no 404, as the path names no resource). */
export const GetDoc = (path: string, summary: string, responses: Record<number, DocResponse>, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiDoc({ ...more, summary, responses }));

/**
 * POST on the controller's own path creating a resource: idempotent by its `Idempotency-Key` (`Idempotent`), answering
 * 201 with the resource (`response`, `schema`). Applied in the order of the stack `@Post() @Idempotent() @ApiDoc(…)`.
 */
export const PostCreate = (summary: string, response: string, schema: string, more?: ApiDocMore) =>
  applyDecorators(ApiDoc({ ...more, summary, responses: created(response, schema) }), Idempotent(), Post());
