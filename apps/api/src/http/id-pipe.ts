import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { isPublicId, type ResourceKind } from '#domain/primitives.js';
import { invalidInput } from './errors.js';

/** Path ids must have the resource's `<Kind>:<uuid>` form; anything else is a 400 naming the parameter. */
@Injectable()
export class IdPipe implements PipeTransform<string, string> {
  constructor(
    private readonly kind: ResourceKind,
    private readonly field: string,
  ) {}
  transform(value: string): string {
    if (!isPublicId(this.kind, value)) {
      throw invalidInput([
        { field: this.field, constraint: 'isId', message: `${this.field} must have the form ${this.kind}:<uuid>` },
      ]);
    }
    return value;
  }
}

export const idParam = (kind: ResourceKind, field: string) => new IdPipe(kind, field);

/** The path parameter `field`, checked to be an id of `kind` (`@IdParam('Card', 'cardId') id: string`). */
export const IdParam = (kind: ResourceKind, field: string) => Param(field, idParam(kind, field));
