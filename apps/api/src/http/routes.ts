import { applyDecorators, Get } from '@nestjs/common';
import { ApiDoc, ApiList, ApiResource, type ApiDocMore, type DocResponse } from '../docs/api-doc.js';

/** GET `path` answering a page of `schema` items (`ApiList`); `''` is the controller's own path. */
export const GetPage = (path: string, summary: string, items: string, schema: string, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiList(summary, items, schema, more));

/** GET `path` naming one resource (`ApiResource`: 404 when it is unknown or another platform's). */
export const GetOne = (path: string, summary: string, responses: Record<number, DocResponse>, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiResource(summary, responses, more));

/** GET `path` answering `responses` (`ApiDoc`: no 404, as the path names no resource). */
export const GetDoc = (path: string, summary: string, responses: Record<number, DocResponse>, more?: ApiDocMore) =>
  applyDecorators(Get(path), ApiDoc({ ...more, summary, responses }));
