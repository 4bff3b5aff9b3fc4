import type { FastifyRequest } from 'fastify';
import type { DeviceCaller, DeviceDoor } from './devices.service.ts';

/** The user name and password of an HTTP Basic `Authorization` header (RFC 7617, UTF-8). */
export function basicCredentials(request: FastifyRequest): { username: string; password: string } | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || !encoded || encoded.length > 1024) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export const deviceCaller = (request: FastifyRequest, door: DeviceDoor, deviceName?: string): DeviceCaller => ({
  ip: request.ip,
  door,
  deviceName,
});
