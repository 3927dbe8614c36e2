import type { FastifyInstance } from 'fastify';
import type { Services } from '../platform.ts';

export function catalogRoutes(_app: FastifyInstance, _services: Services): void {}
