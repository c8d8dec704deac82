/**
 * The envvars API as an OpenAPI document, reconstructed from specs/toolforge/envvars-schemas.md
 * (no published spec file exists: its schemas come from the `Envvars*` models datamodel-codegen made
 * of the live gateway document, components-api `components/gen/toolforge_models.py` @ 28ffdc1).
 * Only what that summary states is declared; everything the summary marks optional is optional.
 */
import { type LoadedSpec, specFromDocument } from './openapi';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ description: '', content: { 'application/json': { schema } } });
const tool = { name: 'toolname', in: 'path', required: true, schema: { type: 'string' } };
const envvarName = { name: 'name', in: 'path', required: true, schema: ref('EnvvarName') };

/** The document. */
export const ENVVARS_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'envvars-api (from envvars-schemas.md)', version: '0.0.88' },
  paths: {
    '/v1/tool/{toolname}/envvars': {
      get: { operationId: 'envvars_list', parameters: [tool], responses: { 200: json(ref('ListResponse')) } },
      post: {
        operationId: 'envvars_create',
        parameters: [tool],
        requestBody: { required: true, content: { 'application/json': { schema: ref('Envvar') } } },
        responses: { 200: json(ref('GetResponse')) },
      },
    },
    '/v1/tool/{toolname}/envvars/{name}': {
      get: {
        operationId: 'envvars_show',
        parameters: [tool, envvarName],
        responses: { 200: json(ref('GetResponse')) },
      },
      delete: {
        operationId: 'envvars_delete',
        parameters: [tool, envvarName],
        responses: { 200: json(ref('GetResponse')) },
      },
    },
    '/v1/tool/{toolname}/quotas': {
      get: {
        operationId: 'envvars_quota',
        parameters: [tool],
        responses: { 200: json(ref('QuotaResponse')) },
      },
    },
  },
  components: {
    schemas: {
      EnvvarName: { type: 'string', pattern: '^[A-Z][A-Z_0-9]{2,}[A-Z0-9]$', example: 'API_TOKEN' },
      Envvar: {
        type: 'object',
        required: ['name', 'value'],
        properties: { name: ref('EnvvarName'), value: { type: 'string', example: 's3cr3t' } },
      },
      ResponseMessages: {
        type: 'object',
        properties: {
          error: { type: 'array', items: { type: 'string' } },
          info: { type: 'array', items: { type: 'string' } },
          warning: { type: 'array', items: { type: 'string' } },
        },
      },
      GetResponse: {
        type: 'object',
        properties: { envvar: ref('Envvar'), messages: ref('ResponseMessages') },
      },
      ListResponse: {
        type: 'object',
        properties: { envvars: { type: 'array', items: ref('Envvar') }, messages: ref('ResponseMessages') },
      },
      EnvvarsQuota: { type: 'object', properties: { quota: { type: 'integer' }, used: { type: 'integer' } } },
      QuotaResponse: {
        type: 'object',
        properties: { quota: ref('EnvvarsQuota'), messages: ref('ResponseMessages') },
      },
    },
  },
};

/** The envvars API spec, mounted at `/envvars`. */
export function envvarsSpec(): Promise<LoadedSpec> {
  return specFromDocument('envvars', ENVVARS_DOCUMENT, '/envvars');
}
