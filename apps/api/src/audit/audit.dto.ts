import { Matches } from 'class-validator';
import { PageParams } from '../http/list-params.js';

/** Cursor-paginated history: limit 1-100 (default 20), cursor as returned in nextCursor. */
export class AuditHistoryQuery extends PageParams {}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export class AuditStateQuery {
  /** RFC 3339 date-time: the instant to show the resource at (compared with each event's business time). */
  @Matches(DATE_TIME, { message: 'asOf must be an RFC 3339 date-time, e.g. 2026-01-05T12:00:00Z' })
  asOf!: string;
}
