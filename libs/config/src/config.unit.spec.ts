import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './config.js';

describe('configuration: TRUSTED_PROXIES', () => {
  const env = { DATA_DIR: '/tmp/payments-config-test' };

  it('is empty by default and takes addresses and CIDR ranges', () => {
    expect(loadConfig(env).trustedProxies).toEqual([]);
    expect(loadConfig({ ...env, TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies).toHaveLength(2);
  });

  it('refuses at start what is not an address or range', () => {
    expect(() => loadConfig({ ...env, TRUSTED_PROXIES: '10.0.0.0/8,lb.internal' })).toThrow(/TRUSTED_PROXIES/);
  });
});

describe('configuration: WEBHOOK_ALLOWED_HOSTS', () => {
  const env = { DATA_DIR: '/tmp/payments-config-test' };

  it('is empty by default: no destination is exempt from the address policy', () => {
    expect(loadConfig(env).webhookAllowedHosts).toEqual([]);
  });

  it('reads comma-separated hosts and host:port entries, normalised like URL hosts', () => {
    const config = loadConfig({ ...env, WEBHOOK_ALLOWED_HOSTS: ' 127.1, LocalHost:8080 ,[::1],' });
    expect(config.webhookAllowedHosts).toEqual([
      { hostname: '127.0.0.1' },
      { hostname: 'localhost', port: 8080 },
      { hostname: '[::1]' },
    ]);
  });

  it('stops the start on an entry that is not a host', () => {
    for (const bad of ['http://example.com', 'example.com/hooks', 'example.com:70000']) {
      expect(() => loadConfig({ ...env, WEBHOOK_ALLOWED_HOSTS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, WEBHOOK_ALLOWED_HOSTS: bad })).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
    }
  });
});

describe('configuration: documents', () => {
  const env = { DATA_DIR: '/tmp/payments-config-test' };

  it('keeps files under DATA_DIR/documents and accepts 25 MiB by default', () => {
    expect(loadConfig(env).documents).toEqual({
      store: { kind: 'fs', path: '/tmp/payments-config-test/documents' },
      maxFileBytes: 25 * 1024 * 1024,
    });
    expect(loadConfig({ ...env, DOCUMENT_MAX_BYTES: '1048576' }).documents.maxFileBytes).toBe(1048576);
  });

  it('stops the start on a size limit that is not a positive integer up to 1 GiB', () => {
    for (const bad of ['0', '-1', '1.5', '25MB', String(2 ** 30 + 1)]) {
      expect(() => loadConfig({ ...env, DOCUMENT_MAX_BYTES: bad })).toThrow(/DOCUMENT_MAX_BYTES/);
    }
  });
});

describe('configuration: HTTP_ADAPTER', () => {
  const env = { DATA_DIR: '/tmp/payments-config-test' };

  it('runs on Fastify unless told otherwise, and on Express with HTTP_ADAPTER=express', () => {
    expect(loadConfig(env).httpAdapter).toBe('fastify');
    expect(loadConfig({ ...env, HTTP_ADAPTER: 'fastify' }).httpAdapter).toBe('fastify');
    expect(loadConfig({ ...env, HTTP_ADAPTER: 'express' }).httpAdapter).toBe('express');
  });

  it('stops the start on another platform', () => {
    for (const bad of ['koa', 'Fastify', 'hapi']) {
      expect(() => loadConfig({ ...env, HTTP_ADAPTER: bad })).toThrow(/HTTP_ADAPTER must be one of express, fastify/);
    }
  });
});

describe('configuration: WEBHOOK_PLATFORM_CONCURRENCY', () => {
  const env = { DATA_DIR: '/tmp/config-spec' };

  it('is a quarter of WEBHOOK_CONCURRENCY by default', () => {
    expect(loadConfig(env)).toMatchObject({ webhookConcurrency: 32, webhookPlatformConcurrency: 8 });
    expect(loadConfig({ ...env, WEBHOOK_CONCURRENCY: '2' }).webhookPlatformConcurrency).toBe(1);
    expect(loadConfig({ ...env, WEBHOOK_PLATFORM_CONCURRENCY: '3' }).webhookPlatformConcurrency).toBe(3);
  });

  it('stops the start on a cap that is not an integer from 1 to WEBHOOK_CONCURRENCY', () => {
    for (const bad of ['0', '33', '2.5', 'four']) {
      expect(() => loadConfig({ ...env, WEBHOOK_PLATFORM_CONCURRENCY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, WEBHOOK_PLATFORM_CONCURRENCY: bad })).toThrow(/WEBHOOK_PLATFORM_CONCURRENCY/);
    }
    expect(() => loadConfig({ ...env, WEBHOOK_CONCURRENCY: '4', WEBHOOK_PLATFORM_CONCURRENCY: '5' })).toThrow(
      /between 1 and 4/,
    );
  });
});
