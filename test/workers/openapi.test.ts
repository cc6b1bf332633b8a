/**
 * OpenAPI sources as the hosted hub runs them, inside workerd: the kept parser reads and upgrades
 * a real document (Swagger 2.0 and YAML too), its operations become tools, and a document on a
 * file is refused (the Worker reads documents from URLs only).
 */
import petstore2 from '@readme/oas-examples/2.0/json/petstore.json';
import petstore from '@readme/oas-examples/3.0/json/petstore.json';
import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS } from '../../engine/connectors/connector.ts';
import { readDocument } from '../../engine/connectors/openapi/document.ts';
import { operationTools } from '../../engine/connectors/openapi/operations.ts';
import { OpenApiConnector } from '../../engine/connectors/openapi-connector.ts';
import { hubErrorOf } from '../hub-error.ts';

describe('OpenAPI in workerd', () => {
  it('reads 3.0, 2.0 and YAML documents into tools', () => {
    for (const document of [petstore, petstore2]) {
      const { tools } = operationTools(
        readDocument(JSON.stringify(document), 'https://api.example/openapi.json'),
      );
      expect(tools.find((t) => t.name === 'getPetById')?.operation?.path).toBe('/pet/{petId}');
    }
    const yaml =
      'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: listA\n      responses: { "200": { description: ok } }\n';
    expect(
      operationTools(readDocument(yaml, 'https://api.example/openapi.yaml')).tools.map((t) => t.name),
    ).toEqual(['listA']);
  });

  it('refuses a document on a file', async () => {
    const source = {
      kind: 'openapi' as const,
      namespace: 'files',
      document: '/home/someone/openapi.json',
      url: 'https://api.example/',
      allowedHosts: ['api.example'],
      addedAt: 0,
      updatedAt: 0,
    };
    const error = await hubErrorOf(() =>
      new OpenApiConnector({ privateAddresses: 'refuse' }).listTools(source, NO_CREDENTIALS),
    );
    expect(error.code).toBe('denied');
    expect(error.message).toContain('reads OpenAPI documents from http(s) URLs only');
  });
});
