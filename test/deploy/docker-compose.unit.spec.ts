import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
};

const compose = parse(readFileSync(resolve('docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;

/** The value a `redis-server` flag is given on the command line. */
const flag = (command: string[], name: string) => command[command.indexOf(`--${name}`) + 1];

/** The production topology's deployment properties. */
describe('docker-compose.yml', () => {
  it("validates with docker-compose config (no engine needed; .ci/run installs Debian's docker-compose)", () => {
    const probe = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
    if (probe.error) {
      if (process.env.CI) throw new Error('docker-compose is not installed: .ci/run installs it with apt-get');
      console.log('skipped: docker-compose is not installed here (CI installs it)');
      return;
    }
    const env = { ...process.env, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
    const checked = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], {
      encoding: 'utf8',
      env,
    });
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('runs the API without a fixed host port, so it scales (`--scale api=N`)', () => {
    const ports = services.api.ports ?? [];
    for (const port of ports) {
      // host part is a range (or absent): never one fixed port that a second replica would collide on
      const host = port.split(':').slice(0, -1).join(':');
      expect(host === '' || /\d+-\d+$|-\d+}$/.test(host)).toBe(true);
    }
    expect(services.api.environment?.RUN_WORKER).toBe('false');
  });

  it('publishes data ports on 127.0.0.1 only', () => {
    for (const name of ['eventstore', 'mongo', 'redis']) {
      for (const port of services[name].ports ?? [])
        expect({ name, port }).toEqual({ name, port: expect.stringMatching(/^127\.0\.0\.1:/) });
    }
  });

  it('waits for a writable MongoDB primary before anything starts', () => {
    const test = services.mongo.healthcheck!.test.join(' ');
    expect(test).toContain('isWritablePrimary');
    expect(test).toContain('rs.initiate');
    for (const name of ['api', 'worker'])
      expect(services[name].depends_on?.mongo).toEqual({ condition: 'service_healthy' });
  });

  it('creates production platforms only', () => {
    for (const name of ['api', 'worker'])
      expect({ name, sandbox: services[name].environment?.SANDBOX }).toEqual({ name, sandbox: 'false' });
  });

  it('restarts every service that fails', () => {
    for (const [name, service] of Object.entries(services))
      expect({ name, restart: service.restart }).toEqual({
        name,
        restart: expect.stringMatching(/^(always|unless-stopped|on-failure)/),
      });
  });

  it('probes the API and the worker for readiness on their metrics port', () => {
    for (const name of ['api', 'worker']) {
      const port = services[name].environment?.METRICS_PORT;
      expect({ name, port }).toEqual({ name, port: '9464' });
      expect(JSON.stringify(services[name].healthcheck?.test)).toContain(`127.0.0.1:${port}/health/ready`);
    }
  });

  it('runs Redis with a memory limit, noeviction and an fsync policy for its AOF', () => {
    const command = services.redis.command!;
    expect(flag(command, 'maxmemory-policy')).toBe('noeviction');
    expect(flag(command, 'maxmemory')).toMatch(/^(\d+[kmg]b|\$\{REDIS_MAXMEMORY:-\d+[kmg]b\})$/);
    expect(flag(command, 'appendonly')).toBe('yes');
    expect(['always', 'everysec']).toContain(flag(command, 'appendfsync'));
  });

  it('shares one configuration between the API and the worker, with the production adapters', () => {
    const { SANDBOX: _a, ...api } = services.api.environment!;
    const { SANDBOX: _w, ...worker } = services.worker.environment!;
    expect(worker).toEqual(api);
    expect(api).toMatchObject({ EVENT_STORE: 'eventstoredb', READ_MODELS: 'mongodb', JOBS: 'bullmq' });
    expect(services.worker.command).toEqual(['node', 'dist/apps/worker/src/main.js']);
  });
});
