import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { CardProcessorConfig } from '#application/cards/card-processor-config.js';
import { CardProcessorMessages, type ProcessorMessage } from '#application/cards/card-processor.js';
import type { Actor } from '#application/tokens.js';
import type { ProcessorAnswer } from '#domain/cards/card-processor.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CARD_PROCESSOR_TEXT } from '../docs/descriptions/card-processor.js';
import { CurrentActor, Public } from '../http/auth.js';
import { IdempotentAction, SecretOnce } from '../http/retries.js';
import { CardProcessorConfigDto, CardProcessorMessageDto } from './card-processor.dto.js';
import {
  PROCESSOR_PLATFORM_HEADER,
  PROCESSOR_SIGNATURE_HEADER,
  ProcessorActor,
  ProcessorSignatureGuard,
} from './processor-signature.guard.js';

const tag = 'Card processor';

/** The validated body as the application's message. */
function messageOf(body: CardProcessorMessageDto): ProcessorMessage {
  const { type, networkTransactionId, cardId } = body;
  const amount = body.amount === undefined ? undefined : BigInt(body.amount);
  if (type === 'AUTHORIZATION' || type === 'ADVICE')
    return {
      type,
      networkTransactionId,
      cardId,
      amount: amount!,
      currency: body.currency!,
      merchant: { ...body.merchant! },
      ...(body.entryMode ? { entryMode: body.entryMode } : {}),
      ...(body.networkDecision ? { networkDecision: body.networkDecision } : {}),
    };
  const original = body.originalNetworkTransactionId!;
  return { type, networkTransactionId, originalNetworkTransactionId: original, cardId, amount };
}

/** The answer with its amount as a JSON number. */
const answered = (a: ProcessorAnswer) => ({ ...a, approvedAmount: Number(a.approvedAmount) });

/** The card processor's messages: authorizations decided in real time, and what follows them. */
@Controller('card-processor')
export class CardProcessorController {
  constructor(private readonly messages: CardProcessorMessages) {}

  @Post('messages')
  @HttpCode(200)
  @Public()
  @UseGuards(ProcessorSignatureGuard)
  @ApiDoc({
    summary: 'Receive a card processor message',
    description: CARD_PROCESSOR_TEXT.message,
    tag,
    auth: 'none',
    responses: ok('The answer', 'CardProcessorAnswer'),
    errors: [401],
    headers: [
      { name: PROCESSOR_PLATFORM_HEADER, description: 'The platform: Platform:<uuid>.', required: true },
      { name: PROCESSOR_SIGNATURE_HEADER, description: 't=<unix seconds>,v1=<hex HMAC-SHA256>.', required: true },
    ],
  })
  async message(@Body() body: CardProcessorMessageDto, @ProcessorActor() actor: Actor) {
    return answered(await this.messages.answer(messageOf(body), actor));
  }
}

/** The platform's card processor settings and secret. */
@Controller('config/card-processor')
export class CardProcessorConfigController {
  constructor(private readonly config: CardProcessorConfig) {}

  @Get()
  @ApiDoc({
    summary: 'Get the card processor settings',
    description: CARD_PROCESSOR_TEXT.config,
    tag,
    responses: ok('The settings', 'CardProcessorConfig'),
  })
  settings(@CurrentActor() actor: Actor) {
    return this.config.view(actor.platformId);
  }

  @Patch()
  @ApiDoc({
    summary: 'Update the card processor settings',
    description: CARD_PROCESSOR_TEXT.update,
    tag,
    responses: ok('The settings', 'CardProcessorConfig'),
  })
  update(@Body() body: CardProcessorConfigDto, @CurrentActor() actor: Actor) {
    const { decisionDeadlineMs, standInDecision } = body;
    const changes = {
      ...(decisionDeadlineMs !== undefined ? { decisionDeadlineMs } : {}),
      ...(standInDecision !== undefined ? { standInDecision } : {}),
    };
    return this.config.configure(changes, actor);
  }

  @IdempotentAction('secret')
  @SecretOnce('cardProcessorSecret')
  @ApiDoc({
    summary: 'Set a new card processor secret',
    description: CARD_PROCESSOR_TEXT.rotateSecret,
    tag,
    responses: ok('The new secret and the settings', 'CardProcessorSecret'),
  })
  rotateSecret(@CurrentActor() actor: Actor) {
    return this.config.rotateSecret(actor);
  }
}
