import { CardProcessorConfig } from '#application/cards/card-processor-config.js';
import { platformActor, platformOption, type CliCommand } from './command.js';
import { fields } from './format.js';

/** Cards: the card processor's secret. */
export const cardCommands: CliCommand[] = [
  {
    name: 'cards:processor-secret',
    synopsis: '--platform Platform:<uuid>',
    description:
      'sets a new card processor secret for the platform (the previous one stops verifying at once) and prints\n' +
      'it, as POST /config/card-processor/secret does: the only time it is shown',
    options: platformOption,
    async run(ctx) {
      const actor = await platformActor(ctx, 'cards:processor-secret');
      const rotated = await ctx.app.get(CardProcessorConfig).rotateSecret(actor);
      const shown = ['cardProcessorSecret', 'decisionDeadlineMs', 'standInDecision', 'secretSetAt'] as const;
      return { data: rotated, text: () => fields(shown.map((k) => [k, String(rotated[k])])) };
    },
  },
];
