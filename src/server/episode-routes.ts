// The HTTP routes of live episodes (src/server/episodes.ts holds what they mean): the line-ups a
// creator may pick, and each seat's transcript of a match once its audience may read it.

import { ArbiterError, type Json } from '@arbiter/engine/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Audience } from './auth.ts';
import { transcriptRefusal } from './episodes.ts';
import { DomainError } from './errors.ts';
import type { LiveMatch } from './live.ts';
import type { MatchService } from './service.ts';

/**
 * The episode routes: the line-ups a creator may pick, and each seat's transcript of a match
 * (`?format=text`: as `arbiter transcript` prints it). `who` says who the caller is for a match
 * (a seat by token, or a spectator with the match's password), as every other match route does.
 */
export function episodeRoutes(
  app: FastifyInstance,
  svc: MatchService,
  who: (req: FastifyRequest, m: LiveMatch) => Promise<Audience>,
): void {
  app.get('/api/lineups', async (req) => {
    const q = LineupsQuery.parse(req.query ?? {});
    if (q.ruleset !== undefined) svc.pkg(q.ruleset);
    return svc.episodes?.offered(q.ruleset) ?? [];
  });
  app.get('/api/matches/:id/transcripts', async (req) => {
    const m = await svc.mustGet((req.params as { id: string }).id);
    await who(req, m);
    return { seats: svc.episodes?.seatsWithTranscripts(m.id, m.seats.length) ?? [] };
  });
  app.get('/api/matches/:id/transcripts/:seat', async (req, reply) => {
    const p = req.params as { id: string; seat: string };
    const q = TranscriptQuery.parse(req.query ?? {});
    const m = await svc.mustGet(p.id);
    const seat = Number(p.seat);
    if (!/^\d{1,3}$/.test(p.seat) || seat >= m.seats.length)
      throw new ArbiterError(
        'bad_request',
        `seat ${p.seat.slice(0, 8)} does not exist (seats are 0..${m.seats.length - 1})`,
      );
    const refusal = transcriptRefusal(m, await who(req, m));
    if (refusal !== null) throw new DomainError('transcript_withheld', refusal);
    if (!svc.episodes) throw new ArbiterError('not_found', 'this server keeps no transcripts');
    const t = svc.episodes.transcript(m.id, seat);
    if (q.format === 'text') return reply.type('text/plain; charset=utf-8').send(t.text);
    return { match: m.id, seat, records: t.records as unknown as Json, text: t.text };
  });
}

const LineupsQuery = z.object({ ruleset: z.string().min(1).max(64).optional() }).strict();
const TranscriptQuery = z
  .object({
    format: z.enum(['json', 'text']).optional(),
    password: z.string().max(1024).optional(),
  })
  .strict();
