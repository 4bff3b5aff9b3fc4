/** The ceiling of the load benchmark: a minimal Fastify route, the fastest any Yidu call could be. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ping', async () => ({ code: 0, data: { ok: true }, msg: 'ok' }));
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
