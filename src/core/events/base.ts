/** Fields every event carries, and the helpers that fill them. */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const EventSourceSchema = lazySchema(() => z.enum(['user', 'agent', 'environment', 'hook']));
export type EventSource = z.infer<typeof EventSourceSchema>;

/** 8-4-4-4-12 hex; version/variant bits are not checked so ids from other tools still load. */
export const EventIdSchema = lazySchema(() => z.guid());
export type EventId = string;

/**
 * ISO 8601 date-time. We always write a zone (`Z`); OpenHands writes local times without one
 * (`2026-06-16T05:39:18.809928`), which are accepted on import.
 */
export const TimestampSchema = lazySchema(() => z.iso.datetime({ offset: true, local: true }));

export const SecurityRiskSchema = lazySchema(() => z.enum(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']));
export type SecurityRisk = z.infer<typeof SecurityRiskSchema>;

export const EventBaseSchema = lazySchema(() =>
  z.looseObject({
    id: EventIdSchema,
    timestamp: TimestampSchema,
    source: EventSourceSchema,
    // The log is a tree so conversations can fork; the log module decides what absent/null means.
    parent_id: z.string().nullable().optional(),
  }),
);

export function newEventId(): EventId {
  return randomUUID();
}

export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString();
}
