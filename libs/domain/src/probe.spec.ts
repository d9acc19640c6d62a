import 'reflect-metadata';
import { describe, it, expect } from '@jest/globals';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';

@Injectable() class Svc { hi() { return 'hi'; } }
@Controller('x') class Ctl { constructor(private readonly s: Svc) {} @Get() get() { return this.s.hi(); } }
@Module({ controllers: [Ctl], providers: [Svc] }) class M {}
class Dto { @IsInt() n!: number; }

describe('probe', () => {
  it('nest DI works', async () => {
    const m = await Test.createTestingModule({ imports: [M] }).compile();
    expect(m.get(Ctl).get()).toBe('hi');
    expect(validateSync(plainToInstance(Dto, { n: 'x' })).length).toBe(1);
  });
});
