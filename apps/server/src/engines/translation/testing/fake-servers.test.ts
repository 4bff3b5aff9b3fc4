import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { MicrosoftEngine } from '../microsoft.ts';
import { startFakeMicrosoft, type FakeMicrosoft } from './fake-servers.ts';

describe('the fakes can be taken down, slowed and brought back while they run', () => {
  let fake: FakeMicrosoft;
  beforeEach(async () => {
    fake = await startFakeMicrosoft();
  });
  afterEach(async () => fake.close());

  const control = (body: unknown) =>
    fetch(`${fake.controlUrl}/behaviour`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('drops every connection while down (its token call too), from another process through the control URL', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    expect((await control({ down: true })).status).toBe(200);
    const error = await engine.translate({ texts: ['Hello'], from: 'en', to: 'de' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).retryable).toBe(true);
    expect(fake.calls.map((c) => c.path)).toEqual(['/translate/auth']);

    await control({ down: false, latencyMs: 50 });
    expect((await engine.translate({ texts: ['Hello'], from: 'en', to: 'de' })).texts).toEqual(['[de] Hello']);
    // Control calls are no part of the service: never recorded.
    expect(fake.calls.map((c) => c.path)).toEqual(['/translate/auth', '/translate/auth', '/translate']);
    expect(await (await fetch(`${fake.controlUrl}/calls`)).json()).toEqual({ main: 1 });
  });
});
