import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_CLOCK_ADVANCE_MS } from '#domain/sandbox-clock/sandbox-clock.js';
import { invalidInput } from '../http/errors.js';

export class AdvanceClockDto {
  @IsOptional()
  @IsInt({ message: 'seconds must be an integer' })
  @Min(1)
  @Max(MAX_CLOCK_ADVANCE_MS / 1000)
  seconds?: number;
  @IsOptional()
  @IsInt({ message: 'milliseconds must be an integer' })
  @Min(1)
  @Max(MAX_CLOCK_ADVANCE_MS)
  milliseconds?: number;
}

/** How far a validated advance moves the clock: exactly one of seconds and milliseconds (INVALID_INPUT otherwise). */
export function advanceMs(body: AdvanceClockDto): number {
  if ((body.seconds === undefined) === (body.milliseconds === undefined)) {
    throw invalidInput([
      { field: 'seconds', constraint: 'exactlyOne', message: 'give exactly one of seconds and milliseconds' },
    ]);
  }
  return body.milliseconds ?? body.seconds! * 1000;
}
