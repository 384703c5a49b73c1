/**
 * Settings over HTTP (§13) under `/v1/spaces/{space}/settings`: the effective settings of a space,
 * each with its source and whether it can change at run time (read), and runtime changes of the
 * changeable ones, persisted per space (admin). Each handler is one engram service call.
 */
import { settingsChangeSchema } from '../../../config/runtime-settings.js';
import { SettingsViewSchema } from '../../responses/settings.js';
import { SpaceParams } from '../schemas.js';
import { type HttpApp, jsonBody, jsonContent, type RouteDeps, spaceRoute } from './common.js';

const TAGS = ['settings'];
const PATH = '/v1/spaces/{space}/settings';

/** The body of a change: runtime keys to new values, null to reset (unknown keys are 400). */
const ChangeBody = settingsChangeSchema.meta({ id: 'SettingsChange' });

function registerRead(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: PATH,
    tags: TAGS,
    summary: 'The settings of the space: values, sources, and which can change at run time',
    description:
      'Every configuration value an operator cares about, in sections. Secrets (API keys, token hashes, passwords in URLs) are never returned.',
    request: { params: SpaceParams },
    responses: { 200: jsonContent(SettingsViewSchema, 'The settings') },
  });
  app.openapi(route, async (c) => c.json(await engram.settings({ space: c.get('space') }), 200));
}

function registerChange(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = spaceRoute('admin', json, {
    method: 'patch',
    path: PATH,
    tags: TAGS,
    summary: 'Change runtime settings of the space (persisted); null resets a key',
    description:
      'Keys are the configuration keys of changeable settings (`changeable: true` in GET), e.g. `{"recall.weights.keyword": 0.5, "auto_recall.mode": null}`. A value is checked against its rule (400 naming the key); null returns the key to its configured value. A key that is not changeable at run time is 400 naming it. Every process on the store honours the change.',
    request: { params: SpaceParams, body: jsonBody(ChangeBody) },
    responses: { 200: jsonContent(SettingsViewSchema, 'The settings after the change') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.changeSettings(c.req.valid('json'), { space: c.get('space') }), 200),
  );
}

/** Registers the settings routes. */
export function registerSettingsRoutes(app: HttpApp, deps: RouteDeps): void {
  registerRead(app, deps);
  registerChange(app, deps);
}
