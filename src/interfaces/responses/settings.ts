/** The settings of a space (§13) as the edges return them: sections of values with their sources. */
import { z } from 'zod';

/** How a changeable setting is edited. */
const ControlSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('number'),
      min: z.number(),
      max: z.number(),
      integer: z.boolean(),
    }),
    z.object({ type: z.literal('boolean') }),
    z.object({ type: z.literal('choice'), options: z.array(z.string()) }),
  ])
  .meta({ id: 'SettingControl' });

const ValueSchema = z
  .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())])
  .meta({ id: 'SettingValue' });

const ConfigSourceSchema = z.enum(['default', 'file', 'env', 'option']);

/** One setting: its value, where it came from, whether it can change at run time. */
export const SettingSchema = z
  .object({
    key: z.string().meta({ description: 'The configuration key, e.g. recall.weights.keyword.' }),
    value: ValueSchema,
    source: z.enum([...ConfigSourceSchema.options, 'runtime']).meta({
      description:
        'file: the configuration file; env: an ENGRAM_ variable; option: the starting command or program; default: the documented default; runtime: changed at run time for this space.',
    }),
    changeable: z.boolean().meta({ description: 'It can change at run time (PATCH).' }),
    configured: z
      .object({ value: ValueSchema, source: ConfigSourceSchema })
      .optional()
      .meta({ description: 'What a reset returns to (changeable settings).' }),
    control: ControlSchema.optional(),
    description: z.string().optional(),
    redacted: z.boolean().optional().meta({ description: 'A secret: its value is not shown.' }),
  })
  .meta({ id: 'Setting' });

/** The settings of a space, in sections. */
export const SettingsViewSchema = z
  .object({
    space: z.string(),
    sections: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        description: z.string(),
        settings: z.array(SettingSchema),
      }),
    ),
  })
  .meta({ id: 'SettingsView' });
