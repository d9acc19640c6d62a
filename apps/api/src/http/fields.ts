import { applyDecorators } from '@nestjs/common';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ValidationOptions } from 'class-validator';

/**
 * Decorators applied as if stacked above the property in this order (TypeScript applies the lowest first, Nest's
 * applyDecorators the first), so a field validates, reports and documents exactly as with the decorators written out.
 */
export const Stack = (...decorators: PropertyDecorator[]): PropertyDecorator =>
  applyDecorators(...[...decorators].reverse());

/** A string of at most `max` characters: `@IsString() @MaxLength(max)`. */
export const Text = (max: number) => Stack(IsString(), MaxLength(max));

/** `Text`, absent allowed: `@IsOptional() @IsString() @MaxLength(max)`. */
export const OptionalText = (max: number) => Stack(IsOptional(), Text(max));

/** A string of 1 to `max` characters: `@IsString() @IsNotEmpty() @MaxLength(max)`. */
export const FilledText = (max: number) => Stack(IsString(), IsNotEmpty(), MaxLength(max));

/** `FilledText`, absent allowed: `@IsOptional() @IsString() @IsNotEmpty() @MaxLength(max)`. */
export const OptionalFilledText = (max: number) => Stack(IsOptional(), FilledText(max));

/** An integer from `min` to `max`: `@IsInt(options) @Min(min, options) @Max(max, options)`. */
export const IntRange = (min: number, max: number, options?: ValidationOptions) =>
  Stack(IsInt(options), Min(min, options), Max(max, options));

/** An email address of at most `max` characters, absent allowed: `@IsOptional() @IsEmail() @MaxLength(max)`. */
export const OptionalEmail = (max: number) => Stack(IsOptional(), IsEmail(), MaxLength(max));
