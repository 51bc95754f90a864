import { EventEmitter } from "node:events";

/**
 * Live events for the server-sent-events route: published by verbs after their transaction commits
 * (`effects.publish`), delivered to the subscribers of the event's entity in this process.
 */
export interface LiveEvent {
  entityId: number;
  /** What happened, e.g. "incident.created", "notification.created". */
  type: string;
  /** Only these users receive it; everyone of the entity when absent. */
  userIds?: number[];
  data?: Record<string, unknown>;
}

export interface EventBus {
  publish(event: LiveEvent): void;
  /** Calls `listener` for every event of the entity; returns the unsubscribe function. */
  subscribe(entityId: number, listener: (event: LiveEvent) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit(`entity:${event.entityId}`, event);
    },
    subscribe(entityId, listener) {
      const name = `entity:${entityId}`;
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
  };
}
