import { CreateDevicePasswordBody, CreatedDevicePassword, DevicePassword } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['user'];
const security = [{ bearer: [] }];

/** Device passwords, made and revoked in the personal center (the devices use them at /opds and /kosync). */
export const devicesRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { devices } = services;
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/user/devicePasswords',
    {
      schema: {
        tags,
        security,
        summary: "The account's live device passwords (never the passwords themselves)",
        response: { 200: envelopeOf(z.array(DevicePassword)) },
      },
    },
    async (request) => ok(await devices.list(authOf(request).user)),
  );

  app.post(
    '/user/devicePasswords',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'A new device password for an e-reader or reading app (OPDS with HTTP Basic, KOReader progress sync); the password is in this answer only',
        body: CreateDevicePasswordBody,
        response: { 200: envelopeOf(CreatedDevicePassword) },
      },
    },
    async (request) => ok(await devices.create(authOf(request).user, request.body.name)),
  );

  app.delete(
    '/user/devicePasswords/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a device password: it stops working at once, for OPDS and progress sync alike',
        params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await devices.revoke(authOf(request).user, request.params.id);
      return ok(null);
    },
  );
};
