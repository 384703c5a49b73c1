/**
 * The OpenAPI document at /v1/openapi.json, checked structurally against the OpenAPI 3.1 rules a
 * client generator relies on, and against the routes the app really serves.
 */
import { describe, expect, it } from 'vitest';

import { inputSchemas } from '../src/domain/input.js';
import { silentLogger } from '../src/domain/log.js';
import { createHttpApp } from '../src/interfaces/http/app.js';
import { TOOL_GROUPS } from '../src/interfaces/mcp/tools/index.js';
import { testEngram } from './helpers.js';
import { startTestService } from './http-helpers.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];

function walkSchemas(
  node: unknown,
  visit: (schema: Json, where: string) => void,
  where: string,
): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node as Json, where);
  for (const [key, inner] of Object.entries(node)) walkSchemas(inner, visit, `${where}/${key}`);
}

/** Problems of an OpenAPI 3.1 document; empty when it is well-formed. */
function openApiProblems(doc: Json): string[] {
  const problems: string[] = [];
  const fail = (msg: string) => problems.push(msg);
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi))
    fail('openapi must be 3.1.x');
  const info = doc.info as Json | undefined;
  if (typeof info?.title !== 'string' || typeof info.version !== 'string')
    fail('info.title and info.version are required');
  const components = (doc.components ?? {}) as Json;
  const schemes = Object.keys((components.securitySchemes ?? {}) as Json);
  const checkSecurity = (sec: unknown, where: string) => {
    if (sec === undefined) return;
    if (!Array.isArray(sec)) {
      fail(`${where}: security must be an array`);
      return;
    }
    for (const req of sec)
      for (const name of Object.keys(req as Json))
        if (!schemes.includes(name)) fail(`${where}: unknown security scheme ${name}`);
  };
  checkSecurity(doc.security, 'root');
  const paths = doc.paths as Record<string, Json> | undefined;
  if (!paths || typeof paths !== 'object') return [...problems, 'paths is required'];
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/')) fail(`${path}: paths start with /`);
    const templated = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
    for (const [method, opValue] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) {
        fail(`${where}: unknown method`);
        continue;
      }
      const op = opValue as Json;
      const responses = op.responses as Record<string, Json> | undefined;
      if (!responses || Object.keys(responses).length === 0)
        fail(`${where}: responses are required`);
      for (const [code, res] of Object.entries(responses ?? {})) {
        if (!/^[1-5]\d\d$|^default$/.test(code)) fail(`${where}: bad status ${code}`);
        if (typeof res.description !== 'string') fail(`${where} ${code}: description is required`);
      }
      if (!Object.keys(responses ?? {}).some((c) => c.startsWith('2')))
        fail(`${where}: no success response`);
      const declared = new Set<string>();
      for (const p of (op.parameters ?? []) as Json[]) {
        if (
          typeof p.name !== 'string' ||
          !['path', 'query', 'header', 'cookie'].includes(p.in as string)
        )
          fail(`${where}: bad parameter`);
        if (!p.schema) fail(`${where}: parameter ${String(p.name)} needs a schema`);
        if (p.in === 'path') {
          declared.add(p.name as string);
          if (p.required !== true)
            fail(`${where}: path parameter ${String(p.name)} must be required`);
        }
      }
      for (const name of templated)
        if (!declared.has(name)) fail(`${where}: path parameter ${name} is not declared`);
      for (const name of declared)
        if (!templated.has(name)) fail(`${where}: parameter ${name} is not in the path`);
      const body = op.requestBody as Json | undefined;
      if (body) {
        const content = body.content as Record<string, Json> | undefined;
        if (!content || Object.keys(content).length === 0)
          fail(`${where}: requestBody needs content`);
        for (const [type, media] of Object.entries(content ?? {}))
          if (!media.schema) fail(`${where}: ${type} needs a schema`);
      }
      checkSecurity(op.security, where);
    }
  }
  walkSchemas(
    doc,
    (node, where) => {
      const ref = node.$ref;
      if (typeof ref === 'string') {
        const target = ref
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>((n, k) => (n as Json | undefined)?.[k], doc);
        if (!ref.startsWith('#/') || target === undefined) fail(`${where}: unresolved $ref ${ref}`);
      }
      const type = node.type;
      if (
        typeof type === 'string' &&
        'properties' in node === false &&
        !TYPES.includes(type) &&
        !where.includes('securitySchemes')
      )
        fail(`${where}: bad type ${type}`);
      if (Array.isArray(type) && type.some((t) => !TYPES.includes(t as string)))
        fail(`${where}: bad type ${String(type)}`);
      if (Array.isArray(node.required) && node.properties && typeof node.properties === 'object')
        for (const r of node.required as string[])
          if (!(r in (node.properties as Json))) fail(`${where}: required ${r} is not a property`);
      if (typeof node.pattern === 'string') {
        try {
          new RegExp(node.pattern, 'u');
        } catch {
          fail(`${where}: pattern ${node.pattern} is not a valid regular expression`);
        }
      }
    },
    '#',
  );
  return problems;
}

async function fetchDocument() {
  const s = await startTestService();
  const res = await s.request('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  return res.body as Json;
}

describe('OpenAPI document', () => {
  it('is a well-formed OpenAPI 3.1 document', async () => {
    const doc = await fetchDocument();
    expect(openApiProblems(doc)).toEqual([]);
  });

  it('the structural check catches broken documents', () => {
    const broken = {
      openapi: '3.0.0',
      info: { title: 'x' },
      paths: {
        '/v1/things/{id}': { get: { responses: { 200: {} } } },
        '/v1/other': {
          post: {
            responses: { 201: { description: 'ok' } },
            requestBody: { content: {} },
            security: [{ nope: [] }],
          },
        },
      },
      components: { schemas: { A: { $ref: '#/components/schemas/Missing', pattern: '^[a-z+$' } } },
    };
    const problems = openApiProblems(broken);
    for (const expected of [
      /openapi must be 3\.1/,
      /info\.title/,
      /description is required/,
      /path parameter id is not declared/,
      /requestBody needs content/,
      /unknown security scheme nope/,
      /unresolved \$ref/,
      /not a valid regular expression/,
    ])
      expect(
        problems.some((p) => expected.test(p)),
        String(expected),
      ).toBe(true);
  });

  it('documents exactly the routes the app serves, with strict JSON bodies and bearer auth', async () => {
    const app = createHttpApp(testEngram(), { log: silentLogger });
    const doc = (await (await app.request('/v1/openapi.json')).json()) as Json;
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const documented = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const served = app.routes
      // `/v1/openapi.json` describes the API; `/*` is the web console's pages, not the API.
      .filter((r) => r.method !== 'ALL' && r.path !== '/v1/openapi.json' && r.path !== '/*')
      .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`);
    expect(new Set(documented)).toEqual(new Set(served));
    expect(documented.length).toBeGreaterThanOrEqual(23);

    for (const [path, ops] of Object.entries(paths))
      for (const [method, op] of Object.entries(ops)) {
        const json = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
          'application/json'
        ] as Json | undefined;
        if (!json) continue;
        const ref = (json.schema as Json).$ref as string | undefined;
        const schema = (
          ref
            ? (doc.components as Json as { schemas: Json }).schemas[ref.split('/').pop()!]
            : json.schema
        ) as Json;
        expect(schema.additionalProperties, `${method} ${path}`).toBe(false);
      }
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(paths['/v1/health']!.get!.security).toEqual([]);
    const remember = (doc.components as { schemas: Record<string, Json> }).schemas.RememberBody!;
    expect(remember.required).toEqual(['body']);
    expect(((remember.properties as Json).tags as Json as { items: Json }).items.pattern).toBe(
      '^[^\\s,]+$',
    );
  });

  it('publishes the response schemas MCP tools declare, and the recall hit as the library returns it', async () => {
    const engram = testEngram();
    const app = createHttpApp(engram, { log: silentLogger });
    const doc = (await (await app.request('/v1/openapi.json')).json()) as Json;
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const tools = TOOL_GROUPS.flatMap((group) => group(inputSchemas(engram.config)));
    const ids = tools.map((t) => (t.output.meta() as { id?: string } | undefined)?.id);
    expect(ids.filter(Boolean).length).toBeGreaterThanOrEqual(12);
    for (const id of ids) if (id) expect(schemas, id).toHaveProperty(id);

    const envelope = schemas.RecallResponse!.properties as Record<string, Json>;
    const hit = (envelope.hits!.items as Json).properties as Record<string, Json>;
    expect(Object.keys(hit.channels!.properties as Json).sort()).toEqual([
      'graph',
      'graph_path',
      'keyword',
      'time',
      'vector',
    ]);
    // An applied decision stage sets each hit's relevance; its envelope says what it did.
    expect(hit).toHaveProperty('relevance');
    expect(hit).toHaveProperty('source');
    expect(Object.keys(envelope.decision!.properties as Json).sort()).toEqual([
      'adapter',
      'low_confidence',
      'reason',
      'rerank',
      'state',
    ]);
  });
});
